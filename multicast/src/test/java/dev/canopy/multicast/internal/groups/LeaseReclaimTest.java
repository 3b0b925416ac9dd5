package dev.canopy.multicast.internal.groups;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.internal.membership.testing.ServerSideExpiry;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.model.MulticastRange;
import io.vertx.core.Future;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A full range refuses a new job with the range named; when the session of the job holding it expires on the
 * server, its leases are gone within the session timeout and the new job gets exactly those addresses (reclaiming
 * the empty slots it finds on the way). {@link LeaseKillTest} does the same with kill -9 of a job process.
 */
@Timeout(60)
class LeaseReclaimTest {

    private static final MulticastRange FOUR = MulticastRange.parse("239.192.7.0/30", "45000");

    private final LeaseFixture fixture = new LeaseFixture();

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void anExhaustedRangeIsAnErrorNamingTheRangeAndTheSetting() {
        GroupAllocator holder = fixture.allocator(LeaseFixture.newJob("holder"), FOUR);
        leaseAll(holder, "c");

        Throwable refused = Await.failure(fixture.allocator(LeaseFixture.newJob("latecomer"), FOUR).open(new GroupKey("c1")));

        assertThat(refused).isInstanceOf(RangeExhaustedException.class)
                .hasMessageContaining("all 4 addresses and ports of multicast range 239.192.7.0/30 ports 45000 are leased")
                .hasMessageContaining("(multicast_range = 239.192.7.0/28)")
                .hasMessageContaining("(multicast_ports = FIRST-LAST)")
                .hasMessageContaining("job latecomer");
        assertThat(((RangeExhaustedException) refused).range()).isEqualTo(FOUR);
    }

    @Test
    void aJobWhoseSessionExpiresLosesItsLeasesAndANewJobGetsTheAddresses() throws Exception {
        LeaseFixture.Job crashed = LeaseFixture.newJob("crashed");
        ZooKeeperSession session = fixture.session(crashed);
        Set<InetSocketAddress> held = leaseAll(fixture.allocator(crashed, FOUR, session), "c");
        GroupAllocator next = fixture.allocator(LeaseFixture.newJob("next"), FOUR);

        long expired = System.nanoTime();
        ServerSideExpiry.expire(session);
        awaitNoLeases(LeaseFixture.SESSION);

        assertThat(Duration.ofNanos(System.nanoTime() - expired)).isLessThanOrEqualTo(LeaseFixture.SESSION);
        assertThat(leaseAll(next, "d")).isEqualTo(held);
    }

    private static Set<InetSocketAddress> leaseAll(GroupAllocator allocator, String prefix) {
        List<Future<GroupLease>> leases = IntStream.range(0, 4)
                .mapToObj(i -> allocator.open(new GroupKey(prefix + i))).toList();
        Set<InetSocketAddress> addresses = leases.stream().map(Await::result).map(GroupLease::address)
                .collect(Collectors.toSet());
        assertThat(addresses).hasSize(4);
        return addresses;
    }

    /** Waits until no slot holds a lease (the ended session's ephemeral znodes are gone). */
    private void awaitNoLeases(Duration deadline) throws Exception {
        CuratorFramework observer = fixture.rawClient(Optional.empty());
        Await.until(deadline, () -> {
            try {
                return observer.getChildren().forPath(LeaseZnodes.SLOTS).stream().allMatch(slot -> {
                    try {
                        return observer.checkExists().forPath(LeaseZnodes.SLOTS + "/" + slot).getNumChildren() == 0;
                    } catch (Exception gone) {
                        return true;
                    }
                });
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, () -> "the leases of the ended session are still there");
    }
}
