package dev.canopy.collectives.calibration;

import dev.canopy.collectives.segmentation.SegmentationThresholds;
import dev.canopy.core.membership.MalformedZnodeException;
import dev.canopy.core.membership.ZnodeJson;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * Calibrated segmentation thresholds kept with a grid's configuration in ZooKeeper, at
 * {@code /canopy/config/<grid name>/segmentation} (JSON: S, M1, M2 and the measured curves).
 * ZooKeeper calls run on a worker thread, never on an event loop.
 */
public final class SegmentationStore {

    private final Vertx vertx;
    private final CuratorFramework client;

    public SegmentationStore(Vertx vertx, CuratorFramework client) {
        this.vertx = vertx;
        this.client = client;
    }

    public static String path(String gridName) {
        return "/canopy/config/" + gridName + "/segmentation";
    }

    /** Stores {@code document} (thresholds plus whatever the caller adds, e.g. curves), replacing any earlier one. */
    public Future<Void> save(String gridName, JsonObject document) {
        byte[] bytes = document.encode().getBytes(StandardCharsets.UTF_8);
        return vertx.executeBlocking(() -> {
            String path = path(gridName);
            if (client.checkExists().forPath(path) == null) {
                client.create().creatingParentsIfNeeded().forPath(path, bytes);
            } else {
                client.setData().forPath(path, bytes);
            }
            return null;
        });
    }

    /**
     * The stored thresholds of {@code gridName}; empty when none were calibrated. A document that is
     * not what {@link #save} stores (no {@code thresholds} object, a threshold that is not a positive
     * byte count) fails with a {@link MalformedZnodeException} naming the znode.
     */
    public Future<Optional<SegmentationThresholds>> load(String gridName) {
        return vertx.executeBlocking(() -> {
            String path = path(gridName);
            try {
                return Optional.of(decode(client.getData().forPath(path), path));
            } catch (KeeperException.NoNodeException e) {
                return Optional.empty();
            }
        });
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
