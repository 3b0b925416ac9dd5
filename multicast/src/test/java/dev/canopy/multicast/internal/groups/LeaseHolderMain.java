package dev.canopy.multicast.internal.groups;

import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.model.MulticastRange;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A job process for {@link LeaseKillTest}: leases {@code count} groups from the range, prints
 * {@code LEASED <address:port> ...}, then waits to be killed. Arguments: ZooKeeper connect string, job name,
 * the job's secret file (the secret itself never goes on a command line), range, ports, count.
 */
public final class LeaseHolderMain {

    private LeaseHolderMain() {
    }

    public static void main(String[] args) throws Exception {
        Vertx vertx = Vertx.vertx();
        ZooKeeperCredentials credentials = ZooKeeperCredentials.of(JobSecret.fromFile(Path.of(args[2])));
        ZooKeeperSession session = ZooKeeperSession.open(vertx, args[0], LeaseFixture.SESSION, Duration.ofSeconds(20),
                Optional.of(credentials)).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        GroupAllocator allocator = new GroupAllocator(session, JobId.of(args[1]), MulticastRange.parse(args[3], args[4]),
                vertx.getOrCreateContext(), 1);
        StringBuilder line = new StringBuilder("LEASED");
        for (int i = 0; i < Integer.parseInt(args[5]); i++) {
            GroupLease lease = allocator.open(new GroupKey("c" + i)).toCompletionStage().toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            line.append(' ').append(lease.address().getAddress().getHostAddress()).append(':').append(lease.address().getPort());
        }
        System.out.println(line);
        System.out.flush();
        // Held until the test kills this process with SIGKILL; reading stdin ends only if the test dies first.
        while (System.in.read() >= 0) {
            // ignore input
        }
        System.exit(0);
    }
}
