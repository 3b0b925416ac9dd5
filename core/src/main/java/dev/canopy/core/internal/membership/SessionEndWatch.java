package dev.canopy.core.internal.membership;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * Tells why a ZooKeeper session ended: a server expired it, or the client gave up after hearing from no
 * server for the session timeout. Both reach Curator as an {@code Expired} event followed by
 * {@code LOST}, but only a server's answer sets the handle's negotiated session timeout to 0 before the
 * event is queued (ZooKeeper's {@code ClientCnxn.onConnected}); when Curator gives up by itself it injects
 * the event into a handle whose timeout is still the negotiated one. This factory creates the handles and
 * looks at that timeout as each {@code Expired} event passes, before Curator sees it.
 */
final class SessionEndWatch implements ZookeeperFactory {

    enum End {
        /** A server answered and said the session no longer exists. */
        EXPIRED_BY_SERVER,
        /** No server answered for the session timeout; the client declared the session lost. */
        CONTACT_LOST
    }

    private volatile End lastEnd = End.CONTACT_LOST;

    /** How the most recent session of this client ended (meaningful once Curator reported LOST). */
    End lastEnd() {
        return lastEnd;
    }

    @Override
    public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly)
            throws Exception {
        return newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, null);
    }

    @Override
    public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
            ZKClientConfig config) throws Exception {
        AtomicReference<ZooKeeper> handle = new AtomicReference<>();
        Watcher watching = event -> {
            if (event.getState() == Watcher.Event.KeeperState.Expired) {
                ZooKeeper expired = handle.get();
                lastEnd = expired != null && expired.getSessionTimeout() <= 0 ? End.EXPIRED_BY_SERVER : End.CONTACT_LOST;
            }
            watcher.process(event);
        };
        ZooKeeper created = config == null
                ? new ZooKeeper(connectString, sessionTimeout, watching, canBeReadOnly)
                : new ZooKeeper(connectString, sessionTimeout, watching, canBeReadOnly, config);
        handle.set(created);
        return created;
    }
}
