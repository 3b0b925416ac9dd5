package dev.canopy.core.internal.membership;

import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * Makes a client's ZooKeeper handles and gives each the {@code digest} credentials once they are known: a session
 * opened before its process knows its job ({@link ZooKeeperSession#openWithoutCredentials}) gets them when it is
 * handed one ({@link ZooKeeperSession#authenticate}), and every handle Curator makes after that (a new session)
 * gets them from the start, as a client built with its credentials does.
 */
final class LateCredentials implements ZookeeperFactory {

    private final ZookeeperFactory handles;
    private volatile ZooKeeperCredentials credentials;

    LateCredentials(ZookeeperFactory handles) {
        this.handles = handles;
    }

    /**
     * From now on every handle carries {@code given}; {@code current}, the client's handle now, gets them at once
     * (ZooKeeper sends them before any later request of that handle).
     *
     * @throws IllegalStateException when the credentials were given before
     */
    synchronized void give(ZooKeeperCredentials given, ZooKeeper current) {
        if (credentials != null) {
            throw new IllegalStateException("this ZooKeeper session already has its credentials");
        }
        credentials = given;
        current.addAuthInfo(JobAclProvider.DIGEST, given.digestAuthentication());
    }

    @Override
    public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly)
            throws Exception {
        return newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, null);
    }

    @Override
    public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
            ZKClientConfig config) throws Exception {
        ZooKeeper created = handles.newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, config);
        ZooKeeperCredentials given = credentials;
        if (given != null) {
            created.addAuthInfo(JobAclProvider.DIGEST, given.digestAuthentication());
        }
        return created;
    }
}
