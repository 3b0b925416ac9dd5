package dev.canopy.collectives.internal.calibration;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeSeal;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * One calibration document kept with a grid's configuration in ZooKeeper, at
 * {@code /canopy/config/<grid name>/<name>}, sealed for the deployment that holds one secret (docs/security.md):
 * the znode belongs to the secret's ZooKeeper credentials (the client's {@code JobAclProvider}: only they may
 * read, change or delete it), and its content is sealed ({@link ZnodeSeal}: the JSON document and an
 * HMAC-SHA-256 over the path and the body under a key derived from the secret and a label of the document's kind). {@link #load} hands out a body only when its MAC is right. ZooKeeper calls run on a worker thread, never
 * on an event loop.
 */
final class SealedConfigZnode {

    /** What a read found at the path. */
    sealed interface Read {
        /** A body sealed under this secret. */
        record Sealed(String body) implements Read {
        }

        /** Nothing there. */
        record Absent() implements Read {
        }

        /** Something this secret did not seal (another secret's, an old unsealed one, a forgery); why, for the log. */
        record Foreign(String why) implements Read {
        }
    }

    /** A calibration document is a few KiB; ZooKeeper's own limit is 1 MiB. */
    private static final int MAX_BODY_CHARS = 512 * 1024;

    private final Vertx vertx;
    private final CuratorFramework client;
    private final String name;
    private final ZnodeSeal seal;

    /**
     * @param client a client with the secret's ZooKeeper credentials
     * @param name the document's znode under the grid's configuration, e.g. {@code segmentation}
     * @param macLabel the key derivation label of this kind of document, so one kind's MAC never fits another
     */
    SealedConfigZnode(Vertx vertx, CuratorFramework client, JobSecret secret, String name, String macLabel) {
        this.vertx = vertx;
        this.client = client;
        this.name = name;
        this.seal = new ZnodeSeal(secret, macLabel, MAX_BODY_CHARS);
    }

    static String path(String gridName, String name) {
        return "/canopy/config/" + gridName + "/" + name;
    }

    String path(String gridName) {
        return path(gridName, name);
    }

    /** Stores {@code body}, sealed, replacing any earlier one; fails naming the fix when it belongs to other credentials. */
    Future<Void> save(String gridName, String body) {
        String path = path(gridName);
        byte[] bytes = seal(path, body);
        return vertx.executeBlocking(() -> {
            try {
                if (client.checkExists().forPath(path) == null) {
                    client.create().creatingParentsIfNeeded().forPath(path, bytes);
                } else {
                    client.setData().forPath(path, bytes);
                }
            } catch (KeeperException.NoAuthException e) {
                throw new IllegalStateException("the " + name + " calibration of grid " + gridName + " in ZooKeeper ("
                        + path + ") belongs to other credentials: it was written with another secret file. Calibrate"
                        + " with that one, or have its holder delete " + path, e);
            }
            return null;
        });
    }

    /** What is stored for {@code gridName}. */
    Future<Read> load(String gridName) {
        return vertx.executeBlocking(() -> {
            String path = path(gridName);
            byte[] stored;
            try {
                stored = client.getData().forPath(path);
            } catch (KeeperException.NoNodeException e) {
                return new Read.Absent();
            } catch (KeeperException.NoAuthException e) {
                return new Read.Foreign("it belongs to other ZooKeeper credentials (another secret calibrated this grid)");
            }
            try {
                return open(path, stored).<Read>map(Read.Sealed::new)
                        .orElse(new Read.Foreign("its MAC is wrong: it was not written with this job's secret"));
            } catch (MalformedZnodeException e) {
                return new Read.Foreign(e.getMessage());
            }
        });
    }

    /** The znode content for {@code body} at {@code path}: the body and its MAC. */
    byte[] seal(String path, String body) {
        return seal.seal(path, body);
    }

    /** The body of sealed content when its MAC is right under this key, else empty ({@link ZnodeSeal#open}). */
    Optional<String> open(String path, byte[] stored) {
        return seal.open(path, stored);
    }
}
