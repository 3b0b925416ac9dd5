package dev.canopy.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.membership.testing.ZooKeeperServers;
import dev.canopy.core.security.JobSecret;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Three JVMs join one job through a ZooKeeper test server in this JVM, agree on ranks and exchange
 * messages both ways over TCP. One is SIGKILLed: the others' pending receives from it fail as soon as its
 * connections reset (well within the session timeout), they see its member znode go, and a send to it
 * fails fast with a clear error.
 */
@Tag("multiprocess")
class MultiProcessJobTest {

    private static final Duration SESSION = Duration.ofSeconds(2);
    private static final Duration START = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(20);

    @Test
    void threeJvmsAgreeExchangeAndSeeAKilledOneLeave() throws Exception {
        List<ChildProcess> children = new ArrayList<>();
        Path secretFile = JobSecret.generate().writeTemporary();
        try (TestingServer zooKeeper = ZooKeeperServers.server()) {
            String[] sites = {"tokyo", "paris", "austin"};
            for (int i = 0; i < 3; i++) {
                children.add(ChildProcess.launch("node" + i, List.of(zooKeeper.getConnectString(), "multi", "node" + i,
                        sites[i], "3", Long.toString(SESSION.toMillis()), secretFile.toString())));
            }

            Map<Integer, ChildProcess> byRank = new HashMap<>();
            String table = null;
            for (ChildProcess child : children) {
                String[] joined = child.await("JOINED", START).split(" ");
                assertThat(joined[2]).isEqualTo("3");
                table = table == null ? joined[3] : table;
                assertThat(joined[3]).as("every JVM computes the same rank table").isEqualTo(table);
                byRank.put(Integer.parseInt(joined[1]), child);
            }
            // Coordinates sort austin < paris < tokyo, so the ranks follow the sites, not the launch order.
            assertThat(table).isEqualTo("node2,node1,node0");
            assertThat(byRank).containsOnlyKeys(0, 1, 2);
            for (ChildProcess child : children) {
                assertThat(BoundSockets.udp(child.pid())).as("UDP sockets of a node told to use 127.0.0.1")
                        .isNotEmpty().allSatisfy(address -> assertThat(address).startsWith("127.0.0.1:"));
            }

            children.forEach(child -> child.send("EXCHANGE"));
            for (int rank = 0; rank < 3; rank++) {
                String exchanged = byRank.get(rank).await("EXCHANGED", REPLY);
                for (int other = 0; other < 3; other++) {
                    if (other != rank) {
                        assertThat(exchanged).contains(other + ":hello " + other + "->" + rank);
                    }
                }
            }

            ChildProcess victim = byRank.get(1);
            List<ChildProcess> survivors = List.of(byRank.get(0), byRank.get(2));
            survivors.forEach(child -> child.send("RECV 1"));
            long killedAt = System.nanoTime();
            victim.kill();
            assertThat(victim.awaitExit(REPLY)).isNotZero();

            for (ChildProcess survivor : survivors) {
                // The reset of its connections is the evidence: no wait for the ZooKeeper session to expire.
                String failed = survivor.await("RECV_FAILED", REPLY);
                Duration detection = Duration.ofNanos(System.nanoTime() - killedAt);
                assertThat(failed).contains("rank 1 (node node1) failed");
                assertThat(detection).as("pending receive failed well before the session timeout").isLessThan(SESSION);
                System.out.println("receive from SIGKILLed node1 failed after " + detection.toMillis() + " ms: " + failed);
            }
            for (ChildProcess survivor : survivors) {
                assertThat(survivor.await("LEFT", REPLY)).startsWith("LEFT node1 ");
            }
            for (ChildProcess survivor : survivors) {
                survivor.send("SEND 1");
                String[] failed = survivor.await("SEND_", REPLY).split(" ", 3);
                assertThat(failed[0]).isEqualTo("SEND_FAILED");
                assertThat(Long.parseLong(failed[1])).as("send to a departed rank fails fast (ms)").isLessThan(1000);
                System.out.println("send to the SIGKILLed rank failed after " + failed[1] + " ms: " + failed[2]);
                assertThat(failed[2]).startsWith("RankFailedException: rank 1 (node node1) failed");
            }
            for (ChildProcess survivor : survivors) {
                survivor.send("EXIT");
                survivor.await("CLOSED", REPLY);
                assertThat(survivor.awaitExit(REPLY)).isZero();
            }
        } finally {
            Files.deleteIfExists(secretFile);
            children.forEach(ChildProcess::close);
        }
    }
}
