package dev.canopy.multicast.internal.groups;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.model.MulticastRange;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kill -9 of a job process that holds every address of a range: its leases are gone within the ZooKeeper
 * session timeout (plus the server's tick), the sweeper clears the slots it left, and a new job leases exactly
 * those addresses.
 */
@Timeout(90)
class LeaseKillTest {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseKillTest.class);
    private static final MulticastRange FOUR = MulticastRange.parse("239.192.10.0/31", "45000-45001");
    /** The server checks expiry once per tick (250 ms); the rest is a loaded machine's scheduling. */
    private static final Duration EXPIRY_SLACK = Duration.ofSeconds(1);

    private final LeaseFixture fixture = new LeaseFixture();
    private Process child;

    @AfterEach
    void stop() {
        if (child != null) {
            child.destroyForcibly();
        }
        fixture.close();
    }

    @Test
    void aKilledJobsLeasesAreGoneWithinTheSessionTimeoutAndANewJobGetsThem() throws Exception {
        Path secret = JobSecret.generate().writeTemporary();
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                LeaseHolderMain.class.getName(), fixture.zooKeeper.connectString(), "killed", secret.toString(),
                FOUR.cidr(), FOUR.ports(), "4");
        child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String leased = CompletableFuture.supplyAsync(this::leasedLine).get(60, TimeUnit.SECONDS);
        Files.deleteIfExists(secret);
        Set<String> held = Arrays.stream(leased.split(" ")).skip(1).collect(Collectors.toSet());
        assertThat(held).hasSize(4);
        GroupAllocator next = fixture.allocator(LeaseFixture.newJob("next"), FOUR);
        assertThat(Await.failure(next.open(new GroupKey("d0")))).isInstanceOf(RangeExhaustedException.class);

        long killed = System.nanoTime();
        child.destroyForcibly(); // SIGKILL: no release, no session close
        CuratorFramework observer = fixture.rawClient(Optional.empty());
        Await.until(LeaseFixture.SESSION.plus(EXPIRY_SLACK).plusSeconds(10), () -> leases(observer) == 0,
                () -> "the killed job's leases are still there");
        Duration gone = Duration.ofNanos(System.nanoTime() - killed);
        LOG.info("leases of the killed job gone {} ms after SIGKILL (session timeout {} ms)", gone.toMillis(),
                LeaseFixture.SESSION.toMillis());

        assertThat(gone).isLessThanOrEqualTo(LeaseFixture.SESSION.plus(EXPIRY_SLACK));
        // The slots it left are empty; anyone's sweep deletes them (ZooKeeper's container cleanup would, later).
        assertThat(Await.result(next.sweep())).isEqualTo(4);
        assertThat(observer.getChildren().forPath(LeaseZnodes.SLOTS)).isEmpty();
        Set<String> reused = IntStream.range(0, 4).mapToObj(i -> Await.result(next.open(new GroupKey("d" + i))))
                .map(lease -> lease.address().getAddress().getHostAddress() + ":" + lease.address().getPort())
                .collect(Collectors.toSet());
        assertThat(reused).isEqualTo(held);
    }

    private String leasedLine() {
        try (BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                if (line.startsWith("LEASED")) {
                    return line;
                }
                LOG.info("[holder] {}", line);
            }
            throw new AssertionError("the lease holder exited without leasing");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long leases(CuratorFramework observer) {
        try {
            return observer.getChildren().forPath(LeaseZnodes.SLOTS).stream().filter(slot -> {
                try {
                    var stat = observer.checkExists().forPath(LeaseZnodes.SLOTS + "/" + slot);
                    return stat != null && stat.getNumChildren() > 0;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }).count();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
