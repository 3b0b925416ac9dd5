package dev.canopy.multicast.internal.groups;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.model.MulticastRange;
import io.vertx.core.Future;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Leasing: distinct addresses across jobs and groups, one address per key within a job, release. */
@Timeout(120)
class GroupAllocatorTest {

    private final LeaseFixture fixture = new LeaseFixture();

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void fourConcurrentJobsLeaseAThousandGroupsWithoutOneCollision() throws Exception {
        // 1,024 slots for 1,000 leases: the last allocations must search a nearly full range under contention.
        leaseConcurrently(4, 250, MulticastRange.parse("239.192.4.0/22", "45000"));
    }

    @Test
    @Tag("exhaustive")
    @Timeout(600)
    void eightConcurrentJobsLeaseTenThousandGroupsWithoutOneCollision() throws Exception {
        leaseConcurrently(8, 1250, MulticastRange.parse("239.192.32.0/19", "45000-45001"));
    }

    private void leaseConcurrently(int jobs, int perJob, MulticastRange range) throws Exception {
        List<GroupAllocator> allocators = new ArrayList<>();
        for (int j = 0; j < jobs; j++) {
            allocators.add(fixture.allocator(LeaseFixture.newJob("concurrent-" + j), range));
        }
        ExecutorService threads = Executors.newFixedThreadPool(jobs);
        List<java.util.concurrent.Future<List<GroupLease>>> results = new ArrayList<>();
        for (GroupAllocator allocator : allocators) {
            results.add(threads.submit(() -> leaseMany(allocator, perJob)));
        }
        List<GroupLease> leases = new ArrayList<>();
        for (java.util.concurrent.Future<List<GroupLease>> result : results) {
            leases.addAll(result.get(Await.DEFAULT.toSeconds() * 10, TimeUnit.SECONDS));
        }
        threads.shutdown();

        Set<InetSocketAddress> addresses = new HashSet<>();
        leases.forEach(lease -> addresses.add(lease.address()));
        assertThat(leases).hasSize(jobs * perJob).allMatch(lease -> lease.role() == LeaseRole.OWNER);
        assertThat(addresses).as("seed %d", fixture.seed).hasSize(jobs * perJob);
        assertThat(addresses).allMatch(address -> range.indexOf(ip(address), address.getPort()) >= 0);
        CuratorFramework observer = fixture.rawClient(Optional.empty());
        assertThat(observer.getChildren().forPath(LeaseZnodes.SLOTS)).hasSize(jobs * perJob);
    }

    /** {@code count} groups, at most 8 allocations in flight at once. */
    private static List<GroupLease> leaseMany(GroupAllocator allocator, int count) {
        List<GroupLease> leases = new ArrayList<>();
        for (int first = 0; first < count; first += 8) {
            List<Future<GroupLease>> wave = new ArrayList<>();
            for (int i = first; i < Math.min(count, first + 8); i++) {
                wave.add(allocator.open(new GroupKey("g" + i)));
            }
            wave.forEach(lease -> leases.add(Await.result(lease)));
        }
        return leases;
    }

    @Test
    void membersOfOneJobOpeningOneKeyGetOneAddressAndOneOwner() {
        LeaseFixture.Job job = LeaseFixture.newJob("shared-key");
        List<GroupAllocator> members = List.of(fixture.allocator(job, MulticastRange.DEFAULT),
                fixture.allocator(job, MulticastRange.DEFAULT), fixture.allocator(job, MulticastRange.DEFAULT));

        List<Future<GroupLease>> opened = members.stream().map(member -> member.open(new GroupKey("c1"))).toList();
        List<GroupLease> leases = opened.stream().map(Await::result).toList();

        assertThat(leases).extracting(GroupLease::address).containsOnly(leases.get(0).address());
        assertThat(leases).filteredOn(lease -> lease.role() == LeaseRole.OWNER).hasSize(1);
        GroupLease other = Await.result(members.get(1).open(new GroupKey("c2")));
        assertThat(other.address()).isNotEqualTo(leases.get(0).address());
    }

    @Test
    void createRefusesAnExistingKeyAndLookupFindsOnlyExistingOnes() {
        LeaseFixture.Job job = LeaseFixture.newJob("create-lookup");
        GroupAllocator root = fixture.allocator(job, MulticastRange.DEFAULT);
        GroupAllocator target = fixture.allocator(job, MulticastRange.DEFAULT);

        assertThat(Await.failure(target.lookup(new GroupKey("t1")))).hasMessageContaining("has no multicast group t1");
        GroupLease created = Await.result(root.create(new GroupKey("t1")));
        assertThat(Await.failure(target.create(new GroupKey("t1")))).hasMessageContaining("has a multicast group t1 already");
        GroupLease found = Await.result(target.lookup(new GroupKey("t1")));

        assertThat(found.address()).isEqualTo(created.address());
        assertThat(found.role()).isEqualTo(LeaseRole.MEMBER);
        assertThat(Await.result(root.lookup(new GroupKey("t1"))).role()).isEqualTo(LeaseRole.OWNER);
    }

    @Test
    void releaseGivesTheAddressBackAndAMembersReleaseDoesNothing() throws Exception {
        MulticastRange one = MulticastRange.parse("239.192.9.9/32", "45001");
        LeaseFixture.Job job = LeaseFixture.newJob("release");
        GroupAllocator owner = fixture.allocator(job, one);
        GroupAllocator member = fixture.allocator(job, one);
        GroupLease lease = Await.result(owner.open(new GroupKey("a")));
        GroupLease seen = Await.result(member.open(new GroupKey("a")));

        Await.result(member.release(seen));
        assertThat(Await.result(owner.lookup(new GroupKey("a"))).address()).isEqualTo(lease.address());
        assertThat(Await.failure(owner.open(new GroupKey("b")))).isInstanceOf(RangeExhaustedException.class);
        Await.result(owner.release(lease));
        CuratorFramework observer = fixture.rawClient(Optional.empty());
        assertThat(observer.getChildren().forPath(LeaseZnodes.SLOTS)).isEmpty();
        assertThat(Await.result(member.open(new GroupKey("b"))).address()).isEqualTo(lease.address());
        Await.result(owner.release(lease)); // twice: already gone, still fine
    }

    @Test
    void parentsDeletedUnderARunningAllocatorAreCreatedAgain() throws Exception {
        LeaseFixture.Job job = LeaseFixture.newJob("parents");
        GroupAllocator allocator = fixture.allocator(job, MulticastRange.DEFAULT);
        Await.result(allocator.release(Await.result(allocator.open(new GroupKey("c1")))));
        // What ZooKeeper's container cleanup (or anyone's sweep of empty parents) does to empty parents.
        CuratorFramework insider = fixture.rawClient(Optional.of(job.credentials()));
        insider.delete().forPath(LeaseZnodes.groups(job.id()));
        insider.delete().forPath(LeaseZnodes.SLOTS);

        GroupLease again = Await.result(allocator.open(new GroupKey("c2")));

        assertThat(again.role()).isEqualTo(LeaseRole.OWNER);
        assertThat(insider.getACL().forPath(LeaseZnodes.SLOTS)).isEqualTo(LeaseZnodes.SHARED_PARENT_ACL);
        assertThat(insider.getChildren().forPath(LeaseZnodes.groups(job.id()))).containsExactly("c2");
    }

    static int ip(InetSocketAddress address) {
        byte[] bytes = address.getAddress().getAddress();
        return (bytes[0] & 0xFF) << 24 | (bytes[1] & 0xFF) << 16 | (bytes[2] & 0xFF) << 8 | (bytes[3] & 0xFF);
    }
}
