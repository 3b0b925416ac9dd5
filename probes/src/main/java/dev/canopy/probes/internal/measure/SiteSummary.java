package dev.canopy.probes.internal.measure;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import dev.canopy.core.node.Member;
import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.forecast.ErrorMetric;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.probes.internal.forecast.LinkState;
import dev.canopy.probes.internal.schedule.LinkRole;
import dev.canopy.probes.internal.schedule.ProbeLink;
import dev.canopy.probes.internal.schedule.ProbePlan;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What a site's representative publishes in ZooKeeper for tools outside the job: the forecasts of the
 * site pairs it probes. As JSON:
 * <pre>
 * {"site":"kut-a","representative":"ka1-0",
 *  "pairs":[{"a":"kut-a","b":"kisti-a","state":"fresh","rtt_ms":11.9,"error_ms":0.4,
 *            "forecaster":"median-10","samples":112,"bandwidth_mbps":44.1}]}
 * </pre>
 * ({@code bandwidth_mbps} only once measured.)
 */
public record SiteSummary(String site, String representative, List<SitePairForecast> pairs) {

    /** More site pairs than one representative probes; a summary beyond it is malformed. */
    static final int MAX_PAIRS = 4_096;

    public SiteSummary {
        pairs = List.copyOf(pairs);
    }

    /**
     * The summary {@code self} publishes under {@code plan}: its representative links' forecasts if it is its
     * site's representative, else empty (another node speaks for the site).
     */
    public static Optional<SiteSummary> of(Member self, ProbePlan plan, List<LinkForecast> forecasts,
                                           ErrorMetric ranking) {
        if (!plan.representativeOf(ProbePlan.siteKey(self)).map(self::equals).orElse(false)) {
            return Optional.empty();
        }
        List<SitePairForecast> pairs = new ArrayList<>();
        for (ProbeLink link : plan.linksOwnedBy(self.id())) {
            if (link.role() != LinkRole.REPRESENTATIVES) {
                continue;
            }
            Optional<LinkForecast> rtt = find(forecasts, link, Metric.ROUND_TRIP_TIME);
            Optional<LinkForecast> bandwidth = find(forecasts, link, Metric.BANDWIDTH);
            rtt.ifPresent(f -> pairs.add(new SitePairForecast(self.coordinates().site(), link.peer().coordinates().site(),
                    f.state(), f.forecast().value(), f.forecast().error(ranking), f.forecast().forecaster(),
                    f.forecast().samples(), bandwidth.map(b -> OptionalDouble.of(b.forecast().value()))
                            .orElse(OptionalDouble.empty()))));
        }
        return Optional.of(new SiteSummary(self.coordinates().site(), self.id().value(), pairs));
    }

    private static Optional<LinkForecast> find(List<LinkForecast> forecasts, ProbeLink link, Metric metric) {
        return forecasts.stream().filter(f -> f.link().equals(link.link()) && f.metric() == metric).findFirst();
    }

    public JsonObject toJson() {
        JsonArray array = new JsonArray();
        for (SitePairForecast pair : pairs) {
            JsonObject json = new JsonObject().put("a", pair.a()).put("b", pair.b())
                    .put("state", pair.state().name().toLowerCase(Locale.ROOT))
                    .put("rtt_ms", pair.rttMs()).put("error_ms", pair.errorMs())
                    .put("forecaster", pair.forecaster()).put("samples", pair.samples());
            pair.bandwidthMbps().ifPresent(mbps -> json.put("bandwidth_mbps", mbps));
            array.add(json);
        }
        return new JsonObject().put("site", site).put("representative", representative).put("pairs", array);
    }

    /**
     * Reads a published summary; {@code where} (e.g. the znode path) names it in the error. Every field
     * is checked before use: names are 1 to 255 characters without control characters, the state is
     * {@code fresh} or {@code stale}, times and bandwidth finite and >= 0, samples an integer >= 0, at
     * most {@value #MAX_PAIRS} pairs.
     *
     * @throws MalformedZnodeException naming {@code where} and the field if the bytes are not a summary
     */
    public static SiteSummary fromJson(byte[] data, String where) {
        ZnodeJson json = ZnodeJson.parse(data, where);
        JsonArray array = json.array("pairs");
        if (array.size() > MAX_PAIRS) {
            throw new MalformedZnodeException(where, "lists " + array.size() + " site pairs, more than " + MAX_PAIRS);
        }
        List<SitePairForecast> pairs = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            ZnodeJson pair = ZnodeJson.of(array.getValue(i), where + " pairs[" + i + "]");
            pairs.add(new SitePairForecast(pair.name("a"), pair.name("b"), state(pair), pair.nonNegative("rtt_ms"),
                    pair.nonNegative("error_ms"), pair.name("forecaster"), pair.integer("samples", 0, Long.MAX_VALUE),
                    pair.has("bandwidth_mbps") ? OptionalDouble.of(pair.nonNegative("bandwidth_mbps"))
                            : OptionalDouble.empty()));
        }
        return new SiteSummary(json.name("site"), json.name("representative"), pairs);
    }

    private static LinkState state(ZnodeJson pair) {
        String state = pair.name("state");
        for (LinkState known : LinkState.values()) {
            if (known.name().toLowerCase(Locale.ROOT).equals(state)) {
                return known;
            }
        }
        throw new MalformedZnodeException(pair.where(), "field \"state\" is '" + MalformedZnodeException.quote(state)
                + "', neither fresh nor stale");
    }
}
