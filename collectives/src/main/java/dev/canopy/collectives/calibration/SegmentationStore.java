package dev.canopy.collectives.calibration;

import dev.canopy.collectives.segmentation.SegmentationThresholds;
import dev.canopy.core.membership.MalformedZnodeException;
import dev.canopy.core.membership.ZnodeJson;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
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
 * ZooKeeper calls run on a worker thread, never on an event loop.
 */
public final class SegmentationStore {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentationStore.class);
    private static final String MAC_LABEL = "canopy/config/segmentation/v1";
    private static final int MAC_HEX_CHARS = 64;
    /** A calibration document (thresholds and a few curves) is a few KiB; ZooKeeper's own limit is 1 MiB. */
    private static final int MAX_BODY_CHARS = 512 * 1024;

    private final Vertx vertx;
    private final CuratorFramework client;
    private final byte[] macKey;

    /**
     * @param client a client with the secret's ZooKeeper credentials (a node's own client, or one opened with
     *               {@code ZooKeeperCredentials.of(secret)})
     */
    public SegmentationStore(Vertx vertx, CuratorFramework client, JobSecret secret) {
        this.vertx = vertx;
        this.client = client;
        this.macKey = secret.derive(MAC_LABEL);
    }

    public static String path(String gridName) {
        return "/canopy/config/" + gridName + "/segmentation";
    }

    /**
     * Stores {@code document} (thresholds plus whatever the caller adds, e.g. curves), sealed, replacing any
     * earlier one. Fails naming the fix when the grid's calibration belongs to other credentials.
     */
    public Future<Void> save(String gridName, JsonObject document) {
        String path = path(gridName);
        byte[] bytes = seal(path, document.encode());
        return vertx.executeBlocking(() -> {
            try {
                if (client.checkExists().forPath(path) == null) {
                    client.create().creatingParentsIfNeeded().forPath(path, bytes);
                } else {
                    client.setData().forPath(path, bytes);
                }
            } catch (KeeperException.NoAuthException e) {
                throw new IllegalStateException("the calibration of grid " + gridName + " in ZooKeeper (" + path
                        + ") belongs to other credentials: it was written with another secret file. Calibrate with"
                        + " that one, or have its holder delete " + path, e);
            }
            return null;
        });
    }

    /**
     * The stored thresholds of {@code gridName}; empty when none were calibrated, or when what is there was not
     * written with this store's secret (logged as a warning).
     */
    public Future<Optional<SegmentationThresholds>> load(String gridName) {
        return vertx.executeBlocking(() -> {
            String path = path(gridName);
            byte[] stored;
            try {
                stored = client.getData().forPath(path);
            } catch (KeeperException.NoNodeException e) {
                return Optional.empty();
            } catch (KeeperException.NoAuthException e) {
                return ignored(path, "it belongs to other ZooKeeper credentials (another secret calibrated this grid)");
            }
            Optional<String> body;
            try {
                body = open(path, stored);
            } catch (MalformedZnodeException e) {
                return ignored(path, e.getMessage());
            }
            if (body.isEmpty()) {
                return ignored(path, "its MAC is wrong: it was not written with this job's secret");
            }
            return Optional.of(decode(body.get().getBytes(StandardCharsets.UTF_8), path));
        });
    }

    private static Optional<SegmentationThresholds> ignored(String path, String why) {
        LOG.warn("ignores the calibrated thresholds at {}: {}; scatter and gather use the defaults (run canopy calibrate"
                + " and the job with the same --secret-file)", path, why);
        return Optional.empty();
    }

    /** The znode content for {@code body} at {@code path}: the body and its MAC. */
    byte[] seal(String path, String body) {
        return new JsonObject().put("body", body).put("mac", HexFormat.of().formatHex(mac(path, body)))
                .encode().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The body of sealed content, when its MAC is right under this store's key; empty when it is not. Content
     * that is not a sealed document at all fails with a {@link MalformedZnodeException}.
     */
    Optional<String> open(String path, byte[] stored) {
        ZnodeJson sealed = ZnodeJson.parse(stored, path);
        String body = sealed.text("body", MAX_BODY_CHARS);
        String macHex = sealed.text("mac", MAC_HEX_CHARS);
        byte[] given;
        try {
            given = HexFormat.of().parseHex(macHex);
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(path, "has a mac that is not hexadecimal");
        }
        return MessageDigest.isEqual(given, mac(path, body)) ? Optional.of(body) : Optional.empty();
    }

    private byte[] mac(String path, String body) {
        return JobSecret.hmac(macKey, (path + "\n" + body).getBytes(StandardCharsets.UTF_8));
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
