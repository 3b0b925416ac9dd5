package dev.canopy.collectives.calibration;

import dev.canopy.core.membership.MalformedZnodeException;
import dev.canopy.core.membership.ZnodeJson;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.tree.LogGpParameters;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The LogGP parameters {@code canopy calibrate} measured on a grid, kept with its configuration in ZooKeeper at
 * {@code /canopy/config/<grid name>/loggp}, sealed like the segmentation thresholds ({@link SealedConfigZnode}:
 * owned by the secret's ZooKeeper credentials, HMAC over path and body). A job run with the same secret plans
 * and pipelines with them; anything it cannot trust is ignored with a warning and the job uses
 * {@link LogGpParameters#DEFAULTS}. A sealed document with bad values fails with a {@link MalformedZnodeException}.
 *
 * <p>The document: {@code {"loggp": {"overhead_ms": o, "gap_ms": g, "per_byte_ms": G, "latency_ms": {"host": L,
 * ...}}, ...}} plus whatever the caller adds (how it was measured).
 */
public final class LogGpStore {

    private static final Logger LOG = LoggerFactory.getLogger(LogGpStore.class);
    private static final String NAME = "loggp";
    private static final String MAC_LABEL = "canopy/config/loggp/v1";

    private final SealedConfigZnode znode;

    /** @param client a client with the secret's ZooKeeper credentials */
    public LogGpStore(Vertx vertx, CuratorFramework client, JobSecret secret) {
        this.znode = new SealedConfigZnode(vertx, client, secret, NAME, MAC_LABEL);
    }

    public static String path(String gridName) {
        return SealedConfigZnode.path(gridName, NAME);
    }

    /**
     * Stores {@code document}, which must hold the parameters under {@code "loggp"} ({@link #toJson}), sealed;
     * fails with a {@link MalformedZnodeException} without writing when they are not valid parameters.
     */
    public Future<Void> save(String gridName, JsonObject document) {
        String body = document.encode();
        try {
            decode(body.getBytes(StandardCharsets.UTF_8), path(gridName));
        } catch (MalformedZnodeException e) {
            return Future.failedFuture(e);
        }
        return znode.save(gridName, body);
    }

    /** The parameters stored for {@code gridName}; empty when none were, or what is there is not this secret's. */
    public Future<Optional<LogGpParameters>> load(String gridName) {
        String path = path(gridName);
        return znode.load(gridName).map(read -> {
            if (read instanceof SealedConfigZnode.Read.Sealed sealed) {
                return Optional.of(decode(sealed.body().getBytes(StandardCharsets.UTF_8), path));
            }
            if (read instanceof SealedConfigZnode.Read.Foreign foreign) {
                LOG.warn("ignores the LogGP parameters at {}: {}; plans use the defaults (run canopy calibrate and the"
                        + " job with the same --secret-file)", path, foreign.why());
            }
            return Optional.empty();
        });
    }

    /** The parameters as stored under {@code "loggp"}. */
    public static JsonObject toJson(LogGpParameters parameters) {
        JsonObject latencies = new JsonObject();
        for (Level level : Level.values()) {
            parameters.latencyMs(level).ifPresent(ms -> latencies.put(level.configName(), ms));
        }
        return new JsonObject().put("overhead_ms", parameters.overheadMs()).put("gap_ms", parameters.gapMs())
                .put("per_byte_ms", parameters.perByteMs()).put("latency_ms", latencies);
    }

    /** The parameters of a stored document; {@code path} names the znode in the error. */
    static LogGpParameters decode(byte[] bytes, String path) {
        ZnodeJson loggp = ZnodeJson.parse(bytes, path).object("loggp");
        Map<Level, Double> latencies = new EnumMap<>(Level.class);
        if (loggp.has("latency_ms")) {
            ZnodeJson levels = loggp.object("latency_ms");
            for (String name : levels.json().fieldNames()) {
                Level level = Level.fromConfigName(name).orElseThrow(() -> new MalformedZnodeException(path,
                        "has latency_ms of " + MalformedZnodeException.quote(name) + ", which is no level"));
                latencies.put(level, levels.nonNegative(name));
            }
        }
        double overhead = loggp.nonNegative("overhead_ms");
        double gap = loggp.nonNegative("gap_ms");
        double perByte = loggp.nonNegative("per_byte_ms");
        try {
            return new LogGpParameters(overhead, gap, perByte, latencies);
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(path, "has bad LogGP parameters: " + MalformedZnodeException.quote(e.getMessage()));
        }
    }
}
