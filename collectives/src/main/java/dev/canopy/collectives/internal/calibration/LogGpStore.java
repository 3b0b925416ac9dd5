package dev.canopy.collectives.internal.calibration;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.tree.LogGpParameters;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.EnumMap;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;

/**
 * The LogGP parameters {@code canopy calibrate} measured on a grid, kept with its configuration in ZooKeeper at
 * {@code /canopy/config/<grid name>/loggp}, sealed like the segmentation thresholds ({@link SealedDocumentStore}:
 * owned by the secret's ZooKeeper credentials, HMAC over path and body). A job run with the same secret plans
 * and pipelines with them; anything it cannot trust is ignored with a warning and the job uses
 * {@link LogGpParameters#DEFAULTS}. A sealed document with bad values fails with a {@link MalformedZnodeException}.
 *
 * <p>The document: {@code {"loggp": {"overhead_ms": o, "gap_ms": g, "per_byte_ms": G, "latency_ms": {"host": L,
 * ...}}, ...}} plus whatever the caller adds (how it was measured).
 */
public final class LogGpStore extends SealedDocumentStore<LogGpParameters> {

    private static final Kind<LogGpParameters> KIND = new Kind<>("loggp", "canopy/config/loggp/v1", LogGpStore::decode,
            "the LogGP parameters", "plans use the defaults");

    /** @param client a client with the secret's ZooKeeper credentials */
    public LogGpStore(Vertx vertx, CuratorFramework client, JobSecret secret) {
        super(vertx, client, secret, KIND);
    }

    public static String path(String gridName) {
        return SealedConfigZnode.path(gridName, KIND.name());
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
