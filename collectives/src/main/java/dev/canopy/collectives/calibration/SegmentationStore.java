package dev.canopy.collectives.calibration;

import dev.canopy.collectives.segmentation.SegmentationThresholds;
import dev.canopy.core.membership.MalformedZnodeException;
import dev.canopy.core.membership.ZnodeJson;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calibrated segmentation thresholds kept with a grid's configuration in ZooKeeper, at
 * {@code /canopy/config/<grid name>/segmentation}, for the deployment that holds one secret: {@code canopy
 * calibrate --secret-file F} writes them, jobs run with the same secret file use them.
 *
 * <p>Two guards, so that nobody without the secret can change what jobs use: the znodes belong to the
 * secret's ZooKeeper credentials (the client's {@code JobAclProvider}: only they may read, change or delete
 * them), and the content is sealed: {@code {"body": "<the JSON document>", "mac": "<hex>"}} with the MAC
 * HMAC-SHA-256 over the path and the body under a key derived from the secret. A reader uses thresholds only
 * when the MAC is right; anything else there (another secret's calibration, an old unsealed one, a forgery)
 * is ignored with a warning, and the job runs with the default settings. A sealed body with bad thresholds
 * (which only a holder of the secret could write) fails with a {@link MalformedZnodeException}.
 * ZooKeeper calls run on a worker thread, never on an event loop ({@link SealedConfigZnode}).
 */
public final class SegmentationStore {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentationStore.class);
    private static final String NAME = "segmentation";
    private static final String MAC_LABEL = "canopy/config/segmentation/v1";

    private final SealedConfigZnode znode;

    /**
     * @param client a client with the secret's ZooKeeper credentials (a node's own client, or one opened with
     *               {@code ZooKeeperCredentials.of(secret)})
     */
    public SegmentationStore(Vertx vertx, CuratorFramework client, JobSecret secret) {
        this.znode = new SealedConfigZnode(vertx, client, secret, NAME, MAC_LABEL);
    }

    public static String path(String gridName) {
        return SealedConfigZnode.path(gridName, NAME);
    }

    /**
     * Stores {@code document} (thresholds plus whatever the caller adds, e.g. curves), sealed, replacing any
     * earlier one. Fails naming the fix when the grid's calibration belongs to other credentials.
     */
    public Future<Void> save(String gridName, JsonObject document) {
        return znode.save(gridName, document.encode());
    }

    /**
     * The stored thresholds of {@code gridName}; empty when none were calibrated, or when what is there was not
     * written with this store's secret (logged as a warning).
     */
    public Future<Optional<SegmentationThresholds>> load(String gridName) {
        String path = path(gridName);
        return znode.load(gridName).map(read -> {
            if (read instanceof SealedConfigZnode.Read.Sealed sealed) {
                return Optional.of(decode(sealed.body().getBytes(StandardCharsets.UTF_8), path));
            }
            if (read instanceof SealedConfigZnode.Read.Foreign foreign) {
                return ignored(path, foreign.why());
            }
            return Optional.empty();
        });
    }

    private static Optional<SegmentationThresholds> ignored(String path, String why) {
        LOG.warn("ignores the calibrated thresholds at {}: {}; scatter and gather use the defaults (run canopy calibrate"
                + " and the job with the same --secret-file)", path, why);
        return Optional.empty();
    }

    /** The znode content for {@code body} at {@code path}: the body and its MAC. */
    byte[] seal(String path, String body) {
        return znode.seal(path, body);
    }

    /** The body of sealed content, when its MAC is right under this store's key; empty when it is not. */
    Optional<String> open(String path, byte[] stored) {
        return znode.open(path, stored);
    }

    /** The thresholds in a stored document; {@code path} names the znode in the error. */
    static SegmentationThresholds decode(byte[] bytes, String path) {
        JsonObject thresholds = ZnodeJson.parse(bytes, path).object("thresholds").json();
        try {
            return SegmentationThresholds.fromJson(thresholds);
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(path, "has bad thresholds: " + MalformedZnodeException.quote(e.getMessage()));
        }
    }
}
