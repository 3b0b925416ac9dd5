package dev.canopy.collectives.internal.calibration;

import dev.canopy.collectives.internal.segmentation.SegmentationThresholds;
import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.apache.curator.framework.CuratorFramework;

/**
 * Calibrated segmentation thresholds kept with a grid's configuration in ZooKeeper, at
 * {@code /canopy/config/<grid name>/segmentation}, for the deployment that holds one secret: {@code canopy
 * calibrate --secret-file F} writes them, jobs run with the same secret file use them; nobody without the secret
 * can change what jobs use ({@link SealedDocumentStore}). The document: {@code {"thresholds": {"S": ..., "M1":
 * ..., "M2": ...}, ...}} plus whatever the caller adds, e.g. curves.
 */
public final class SegmentationStore extends SealedDocumentStore<SegmentationThresholds> {

    private static final Kind<SegmentationThresholds> KIND = new Kind<>("segmentation", "canopy/config/segmentation/v1",
            SegmentationStore::decode, "the calibrated thresholds", "scatter and gather use the defaults");

    /**
     * @param client a client with the secret's ZooKeeper credentials (a node's own client, or one opened with
     *               {@code ZooKeeperCredentials.of(secret)})
     */
    public SegmentationStore(Vertx vertx, CuratorFramework client, JobSecret secret) {
        super(vertx, client, secret, KIND);
    }

    public static String path(String gridName) {
        return SealedConfigZnode.path(gridName, KIND.name());
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
