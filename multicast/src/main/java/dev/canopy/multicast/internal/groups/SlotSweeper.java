package dev.canopy.multicast.internal.groups;

import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.apache.curator.x.async.AsyncCuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes slots that no lease holds any more: their owner's session ended (a crashed or killed job) and
 * left the slot behind. ZooKeeper deletes empty containers by itself after a while; this does it at once,
 * for one slot an allocation finds taken, or for the whole range. Deleting only ever succeeds on an empty
 * slot (ZooKeeper refuses to delete a znode with children), so a held slot is never touched.
 */
final class SlotSweeper {

    private static final Logger LOG = LoggerFactory.getLogger(SlotSweeper.class);

    private final AsyncCuratorFramework zooKeeper;
    private final Context context;

    SlotSweeper(AsyncCuratorFramework zooKeeper, Context context) {
        this.zooKeeper = zooKeeper;
        this.context = context;
    }

    /** Deletes every slot without a lease; returns how many. Names that are not slots are left alone. */
    Future<Integer> sweep() {
        return Future.fromCompletionStage(zooKeeper.getChildren().forPath(LeaseZnodes.SLOTS), context)
                .recover(e -> cause(e) instanceof KeeperException.NoNodeException
                        ? Future.succeededFuture(List.of()) : Future.failedFuture(cause(e)))
                .compose(names -> {
                    List<Future<Boolean>> deletions = new ArrayList<>();
                    names.forEach(name -> Slot.parse(name).ifPresent(slot -> deletions.add(reclaim(slot))));
                    return Future.all(deletions).map(all -> {
                        int deleted = (int) deletions.stream().filter(Future::result).count();
                        if (deleted > 0) {
                            LOG.info("multicast groups: swept {} slots left by ended ZooKeeper sessions", deleted);
                        }
                        return deleted;
                    });
                });
    }

    /**
     * Deletes {@code slot} if no lease holds it. Returns whether the slot is free now (deleted, or already
     * gone); false while a lease holds it.
     */
    Future<Boolean> reclaim(Slot slot) {
        // exists() needs READ, which every slot this code creates gives anyone; a slot someone else created
        // without it counts as held (it is neither ours to delete nor free to lease).
        return Future.fromCompletionStage(zooKeeper.checkExists().forPath(LeaseZnodes.slot(slot)), context).compose(
                stat -> stat == null ? Future.succeededFuture(true)
                        : stat.getNumChildren() > 0 ? Future.succeededFuture(false)
                        : deleteEmpty(slot, stat.getVersion()),
                e -> cause(e) instanceof KeeperException.NoAuthException
                        ? Future.succeededFuture(false) : Future.failedFuture(cause(e)));
    }

    /** Deletes an empty slot; ZooKeeper refuses if a lease was added meanwhile. Returns whether it is gone. */
    private Future<Boolean> deleteEmpty(Slot slot, int version) {
        return Future.fromCompletionStage(zooKeeper.delete().withVersion(version).forPath(LeaseZnodes.slot(slot)), context)
                .map(deleted -> {
                    LOG.debug("multicast groups: reclaimed slot {} (its lease's session ended)", slot);
                    return true;
                })
                .recover(e -> {
                    Throwable cause = cause(e);
                    if (cause instanceof KeeperException.NoNodeException) {
                        return Future.succeededFuture(true);
                    }
                    if (cause instanceof KeeperException.NotEmptyException
                            || cause instanceof KeeperException.BadVersionException
                            || cause instanceof KeeperException.NoAuthException) {
                        return Future.succeededFuture(false);
                    }
                    return Future.failedFuture(cause);
                });
    }

    static Throwable cause(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }
}
