package dev.canopy.probes.internal.measure;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.testing.fuzz.DecoderFuzzContract;
import dev.canopy.core.testing.fuzz.FuzzCampaign;
import dev.canopy.probes.internal.forecast.LinkState;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Probe summaries as ZooKeeper may hold them after a foreign or broken writer: seeded mutation
 * fuzzing ({@link FuzzCampaign}, JSON-aware) finds no error but {@link MalformedZnodeException}, and
 * what a representative publishes round-trips.
 */
class SiteSummaryFuzzTest extends DecoderFuzzContract {

    private static final String PATH = "/canopy/jobs/j/probes/summary/s";

    @Test
    void badFieldsAreNamed() {
        String pair = "{\"a\":\"x\",\"b\":\"y\",\"state\":\"%s\",\"rtt_ms\":%s,\"error_ms\":0,\"forecaster\":\"f\",\"samples\":1}";
        assertRejected(String.format(pair, "gone", "1"), "\"state\" is 'gone', neither fresh nor stale");
        assertRejected(String.format(pair, "fresh", "-1"), "\"rtt_ms\" is -1, not a finite number >= 0");
        assertRejected(String.format(pair, "fresh", "1e400"), "\"rtt_ms\"");
    }

    private static void assertRejected(String pair, String problem) {
        byte[] json = ("{\"site\":\"s\",\"representative\":\"r\",\"pairs\":[" + pair + "]}").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> SiteSummary.fromJson(json, PATH)).isInstanceOf(MalformedZnodeException.class)
                .hasMessageContaining(PATH + " pairs[0]").hasMessageContaining(problem);
    }

    @Override
    protected Stream<FuzzCampaign<?>> campaigns() {
        return Stream.of(campaign());
    }

    private static FuzzCampaign<SiteSummary> campaign() {
        return FuzzCampaign.of("SiteSummary.fromJson", SiteSummaryFuzzTest::randomSummary,
                summary -> Buffer.buffer(summary.toJson().encode()),
                bytes -> SiteSummary.fromJson(bytes.getBytes(), PATH)).rejectingWith(MalformedZnodeException.class).json();
    }

    private static SiteSummary randomSummary(SplittableRandom random) {
        List<SitePairForecast> pairs = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            pairs.add(new SitePairForecast("site" + random.nextInt(9), "site" + random.nextInt(9),
                    random.nextBoolean() ? LinkState.FRESH : LinkState.STALE, random.nextInt(100_000) / 100.0,
                    random.nextInt(1000) / 100.0, "median-" + random.nextInt(20), random.nextInt(10_000),
                    random.nextBoolean() ? OptionalDouble.of(random.nextInt(100_000) / 10.0) : OptionalDouble.empty()));
        }
        return new SiteSummary("site" + random.nextInt(9), "node-" + random.nextInt(99), pairs);
    }
}
