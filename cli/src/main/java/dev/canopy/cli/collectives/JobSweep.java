package dev.canopy.cli.collectives;

import dev.canopy.core.internal.membership.JobZnodes;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.tls.ZooKeeperTls;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;

/**
 * After every process of a launched job has ended, removes whatever the job left in ZooKeeper: a job
 * whose members all crashed has nobody left to do it (a job that finished cleanly was removed by its last
 * member, and then there is nothing to do). Bounded: when ZooKeeper does not answer within
 * {@link #CONNECT_TIMEOUT}, it says so and gives up, so a launcher never hangs on a ZooKeeper that is gone.
 */
final class JobSweep {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    private JobSweep() {
    }

    static void sweep(String connectString, JobId job, Optional<ZooKeeperCredentials> credentials,
            Optional<ZooKeeperTls> tls, PrintWriter err) {
        CuratorFramework client = ZooKeeperSession.builder(connectString, NodeOptions.DEFAULT_SESSION_TIMEOUT,
                CONNECT_TIMEOUT, credentials, tls).build();
        try {
            client.start();
            if (!client.blockUntilConnected((int) CONNECT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                report(err, "ZooKeeper at " + connectString + " did not answer within " + CONNECT_TIMEOUT.toSeconds()
                        + " s; whatever job " + job + " left under " + JobZnodes.root(job) + " stays there");
                return;
            }
            if (JobZnodes.sweep(client, job)) {
                report(err, "removed what job " + job + " left in ZooKeeper (" + JobZnodes.root(job) + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            report(err, "could not remove " + JobZnodes.root(job) + " from ZooKeeper at " + connectString + ": " + e);
        } finally {
            client.close();
        }
    }

    private static void report(PrintWriter err, String message) {
        err.println("canopy launch: " + message);
        err.flush();
    }
}
