package dev.canopy.multicast.internal.groups;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.model.MulticastRange;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.fabric.SendOutcome;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdFabric;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.simulation.Simulation;
import io.vertx.core.Future;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-communicator manager: one static group for all members, created and destroyed with the
 * communicator; temporary target groups created by a root, joined by targets, dropped; times measured; and
 * on the emulated fabric, two jobs whose communicators have the same context never hear each other.
 */
@Timeout(60)
class CommunicatorGroupsTest {

    private static final Logger LOG = LoggerFactory.getLogger(CommunicatorGroupsTest.class);
    private static final int CONTEXT = 1;

    private final LeaseFixture fixture = new LeaseFixture();

    @AfterEach
    void stop() {
        fixture.close();
    }

    private List<CommunicatorGroups> members(LeaseFixture.Job job, int count, ManagementTimes times) {
        List<CommunicatorGroups> members = new ArrayList<>();
        for (int rank = 0; rank < count; rank++) {
            members.add(new CommunicatorGroups(fixture.allocator(job, MulticastRange.DEFAULT), CONTEXT, NanoClock.SYSTEM, times));
        }
        return members;
    }

    @Test
    void theStaticGroupIsOneGroupOfTheWholeCommunicatorAndGoesWithIt() throws Exception {
        ManagementTimes times = new ManagementTimes();
        List<CommunicatorGroups> members = members(LeaseFixture.newJob("static"), 3, times);

        List<GroupLease> leases = members.stream().map(CommunicatorGroups::communicatorGroup).toList().stream()
                .map(Await::result).toList();

        assertThat(leases).extracting(GroupLease::address).containsOnly(leases.get(0).address());
        assertThat(leases).filteredOn(lease -> lease.role() == LeaseRole.OWNER).hasSize(1);
        assertThat(Await.result(members.get(1).communicatorGroup())).isSameAs(leases.get(1));
        assertThat(times.creation(GroupPolicy.STATIC).count()).isEqualTo(3);
        assertThat(times.creation(GroupPolicy.STATIC).max()).isPositive();

        members.forEach(member -> Await.result(member.close()));
        CuratorFramework observer = fixture.rawClient(Optional.empty());
        assertThat(observer.getChildren().forPath(LeaseZnodes.SLOTS)).isEmpty();
        assertThat(times.destruction(GroupPolicy.STATIC).count()).isEqualTo(3);
        assertThat(Await.failure(members.get(0).createTargetGroup(GroupPolicy.DYNAMIC, 1))).hasMessageContaining("are closed");
    }

    @Test
    void aDynamicGroupIsCreatedByTheRootJoinedByTheTargetsAndDroppedAfterTheOperation() throws Exception {
        ManagementTimes times = new ManagementTimes();
        List<CommunicatorGroups> members = members(LeaseFixture.newJob("dynamic"), 4, times);
        GroupLease whole = Await.result(members.get(0).communicatorGroup());
        CuratorFramework observer = fixture.rawClient(Optional.empty());

        for (long operation = 1; operation <= 3; operation++) {
            GroupLease created = Await.result(members.get(0).createTargetGroup(GroupPolicy.DYNAMIC, operation));
            // The root announces the operation on the static group; targets 2 and 3 join, 1 stays out.
            GroupLease joined2 = Await.result(members.get(2).joinTargetGroup(GroupPolicy.DYNAMIC, operation));
            GroupLease joined3 = Await.result(members.get(3).joinTargetGroup(GroupPolicy.DYNAMIC, operation));
            assertThat(List.of(joined2.address(), joined3.address())).containsOnly(created.address());
            assertThat(created.address()).isNotEqualTo(whole.address());
            assertThat(created.role()).isEqualTo(LeaseRole.OWNER);
            assertThat(observer.getChildren().forPath(LeaseZnodes.SLOTS)).hasSize(2);

            Await.result(Future.all(members.get(2).drop(joined2), members.get(3).drop(joined3), members.get(0).drop(created)));
            assertThat(observer.getChildren().forPath(LeaseZnodes.SLOTS)).hasSize(1);
        }
        LOG.info("4 members, 3 dynamic operations: {}", times);
        assertThat(times.creation(GroupPolicy.DYNAMIC).count()).isEqualTo(9);
        assertThat(times.destruction(GroupPolicy.DYNAMIC).count()).isEqualTo(9);
        assertThat(Await.failure(members.get(1).joinTargetGroup(GroupPolicy.DYNAMIC, 1))).hasMessageContaining("no multicast group");
        assertThat(Await.failure(members.get(1).createTargetGroup(GroupPolicy.AUTO, 9))).hasMessageContaining("cost model");
        assertThat(Await.failure(members.get(1).drop(whole))).hasMessageContaining("not an open target group");
    }

    @Test
    void closingReleasesPersistentGroupsStillOpen() throws Exception {
        ManagementTimes times = new ManagementTimes();
        List<CommunicatorGroups> members = members(LeaseFixture.newJob("persistent"), 2, times);
        Await.result(members.get(0).communicatorGroup());
        GroupLease request = Await.result(members.get(0).createTargetGroup(GroupPolicy.PERSISTENT, 42));
        assertThat(Await.result(members.get(1).joinTargetGroup(GroupPolicy.PERSISTENT, 42)).address()).isEqualTo(request.address());

        Await.result(members.get(0).close());

        assertThat(fixture.rawClient(Optional.empty()).getChildren().forPath(LeaseZnodes.SLOTS)).isEmpty();
        assertThat(times.destruction(GroupPolicy.PERSISTENT).count()).isEqualTo(1);
        assertThat(times.toString()).contains("persistent create 2 x", "static create 1 x");
    }

    @Test
    void aFailedOpenOfTheStaticGroupIsTriedAgainByTheNextCall() {
        MulticastRange one = MulticastRange.parse("239.192.11.1/32", "45000");
        GroupAllocator other = fixture.allocator(LeaseFixture.newJob("holder"), one);
        GroupLease held = Await.result(other.open(new GroupKey("c9")));
        CommunicatorGroups groups = new CommunicatorGroups(fixture.allocator(LeaseFixture.newJob("waiting"), one), CONTEXT,
                NanoClock.SYSTEM, new ManagementTimes());

        assertThat(Await.failure(groups.communicatorGroup())).isInstanceOf(RangeExhaustedException.class);
        Await.result(other.release(held));

        assertThat(Await.result(groups.communicatorGroup()).address()).isEqualTo(held.address());
    }

    @Test
    void twoJobsWithTheSameContextGetTwoGroupsThatNeverHearEachOtherOnTheEmulatedFabric() {
        GroupLease jobA = Await.result(members(LeaseFixture.newJob("job-a"), 1, new ManagementTimes()).get(0).communicatorGroup());
        GroupLease jobB = Await.result(members(LeaseFixture.newJob("job-b"), 1, new ManagementTimes()).get(0).communicatorGroup());
        MulticastGroup groupA = jobA.group(CONTEXT);
        MulticastGroup groupB = jobB.group(CONTEXT);
        assertThat(groupA).isNotEqualTo(groupB);
        assertThat(groupA.id()).isEqualTo(groupB.id());

        Simulation simulation = new Simulation();
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.perfect(), simulation, simulation.wire());
        List<String> heard = new ArrayList<>();
        List<EmulatedUdFabric> endpoints = new ArrayList<>();
        for (String name : List.of("a0", "a1", "b0", "b1")) {
            EmulatedUdFabric endpoint = fabric.attach(name, simulation.newLoop(name));
            endpoint.receiveHandler((group, datagram) -> heard.add(name + " from " + (group.equals(groupA) ? "A" : "B")));
            for (int i = 0; i < 4; i++) {
                endpoint.postReceive(ByteBuffer.allocate(endpoint.mtu()));
            }
            endpoint.join(name.startsWith("a") ? groupA : groupB);
            endpoints.add(endpoint);
        }
        assertThat(endpoints.get(0).send(groupA, ByteBuffer.allocate(64))).isEqualTo(SendOutcome.SENT);
        assertThat(endpoints.get(2).send(groupB, ByteBuffer.allocate(64))).isEqualTo(SendOutcome.SENT);
        simulation.runUntil(() -> false, Long.MAX_VALUE);

        assertThat(heard).containsExactlyInAnyOrder("a1 from A", "b1 from B");
    }
}
