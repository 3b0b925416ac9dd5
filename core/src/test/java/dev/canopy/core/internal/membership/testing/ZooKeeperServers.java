package dev.canopy.core.internal.membership.testing;

import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.client.FourLetterWordMain;

/** Curator's real test servers; the single server has short ticks so that sessions of one or two seconds are allowed. */
public final class ZooKeeperServers {

    public static final int TICK_MILLIS = 200;
    /** Quorum peers sync within a few ticks; on a busy 2-core machine 200 ms ticks make followers drop out. */
    public static final int CLUSTER_TICK_MILLIS = 1000;

    private ZooKeeperServers() {
    }

    public static TestingServer server() throws Exception {
        return new TestingServer(spec(-1, TICK_MILLIS), true);
    }

    public static TestingCluster cluster(int servers) throws Exception {
        List<InstanceSpec> specs = new ArrayList<>();
        for (int id = 1; id <= servers; id++) {
            specs.add(spec(id, CLUSTER_TICK_MILLIS));
        }
        TestingCluster cluster = new TestingCluster(specs);
        cluster.start();
        return cluster;
    }

    /** The server of {@code cluster} that answers ZooKeeper's {@code srvr} command with "Mode: leader" (on 127.0.0.1). */
    public static InstanceSpec leaderOf(TestingCluster cluster) throws Exception {
        for (InstanceSpec server : cluster.getInstances()) {
            String status = FourLetterWordMain.send4LetterWord("127.0.0.1", server.getPort(), "srvr");
            if (status.contains("Mode: leader")) {
                return server;
            }
        }
        throw new AssertionError("no server of " + cluster.getConnectString() + " says it leads");
    }

    private static InstanceSpec spec(int serverId, int tickMillis) {
        return new InstanceSpec(null, -1, -1, -1, true, serverId, tickMillis, -1);
    }
}
