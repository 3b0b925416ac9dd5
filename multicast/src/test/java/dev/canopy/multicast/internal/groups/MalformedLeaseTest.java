package dev.canopy.multicast.internal.groups;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.model.MulticastRange;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Group records and leases read back from ZooKeeper are validated: anything this code does not write is refused, typed. */
@Timeout(60)
class MalformedLeaseTest {

    private static final MulticastRange RANGE = MulticastRange.parse("239.192.8.0/24", "45000-45009");

    private final LeaseFixture fixture = new LeaseFixture();

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void malformedRecordsAndLeasesAreRejectedNamingTheZnode() throws Exception {
        LeaseFixture.Job job = LeaseFixture.newJob("tampered");
        GroupAllocator member = fixture.allocator(job, RANGE);
        GroupLease lease = Await.result(member.open(new GroupKey("c1")));
        Slot slot = new Slot(GroupAllocatorTest.ip(lease.address()), lease.address().getPort());
        String record = LeaseZnodes.group(job.id(), lease.key());
        byte[] good = LeaseCodec.record(slot);
        // Someone holding the job's credentials (a buggy or older member) writes what this code never writes.
        CuratorFramework insider = fixture.rawClient(Optional.of(job.credentials()));

        assertRejected(member, insider, record, "not json", "is not a JSON object");
        assertRejected(member, insider, record, "", "is empty");
        assertRejected(member, insider, record, "{\"slot\": 5}", "field \"slot\" is 5, not a text");
        assertRejected(member, insider, record, "{\"address\": \"239.192.8.1\"}", "field \"slot\" is missing");
        assertRejected(member, insider, record, "{\"slot\": \"239.192.8.1:99999\"}", "not ADDRESS:PORT");
        assertRejected(member, insider, record, "{\"slot\": \"10.0.0.1:45000\"}", "not ADDRESS:PORT");
        assertRejected(member, insider, record, "{\"slot\": \"239.192.008.1:45000\"}", "not ADDRESS:PORT");
        assertRejected(member, insider, record, "{\"slot\": \"239.192.8.1:45000\\u0007\"}", "not a text");
        assertRejected(member, insider, record, "{\"slot\": \"239.200.0.1:45000\"}",
                "outside this member's multicast range 239.192.8.0/24 ports 45000-45009");
        String free = slot.port() == 45_009 ? "239.192.8.0:45008" : "239.192.8.0:45009";
        assertRejected(member, insider, record, "{\"slot\": \"" + free + "\"}", "which no lease holds");

        insider.setData().forPath(record, good);
        assertThat(Await.result(member.lookup(lease.key())).address()).isEqualTo(lease.address());
        insider.setData().forPath(LeaseZnodes.lease(slot), "{\"job\":\"tampered\",\"group\":\"c2\"}".getBytes(StandardCharsets.UTF_8));
        assertRejectedLookup(member, lease.key(), LeaseZnodes.lease(slot), "is the lease of group c2 of job tampered, not of group c1");
        insider.setData().forPath(LeaseZnodes.lease(slot), "[]".getBytes(StandardCharsets.UTF_8));
        assertRejectedLookup(member, lease.key(), LeaseZnodes.lease(slot), "is not a JSON object");

        GroupKey persistent = new GroupKey("c2");
        insider.create().withMode(CreateMode.PERSISTENT).forPath(LeaseZnodes.group(job.id(), persistent), good);
        assertRejectedLookup(member, persistent, LeaseZnodes.group(job.id(), persistent), "is not ephemeral");
        assertThat(Await.failure(member.open(persistent))).isInstanceOf(MalformedZnodeException.class);
    }

    @Test
    void slotNamesThatAreNotSlotsAndUnreadableSlotsAreSkippedBySweepsAndAllocations() throws Exception {
        GroupAllocator member = fixture.allocator(LeaseFixture.newJob("neighbour"), MulticastRange.parse("239.192.9.0/30", "45000"));
        // Another grid's job, on another range, has created the shared parents.
        Await.result(fixture.allocator(LeaseFixture.newJob("elsewhere"), MulticastRange.parse("239.193.0.0/32", "45000"))
                .open(new GroupKey("c0")));
        CuratorFramework anyone = fixture.rawClient(Optional.empty());
        for (String junk : List.of("junk", "239.192.9.01:45000", "10.0.0.1:45000", "239.192.9.1:0")) {
            anyone.create().forPath(LeaseZnodes.SLOTS + "/" + junk);
        }

        // A squatter's slot that nobody else may even read counts as held: skipped, not an error.
        CuratorFramework squatter = fixture.rawClient(Optional.of(LeaseFixture.newJob("squatter").credentials()));
        squatter.create().withACL(ZooDefs.Ids.CREATOR_ALL_ACL).forPath(LeaseZnodes.SLOTS + "/239.192.9.1:45000");
        Await.result(member.open(new GroupKey("c0")));

        assertThat(Await.result(member.sweep())).isZero();
        GroupLease c0 = Await.result(member.lookup(new GroupKey("c0")));
        GroupLease c1 = Await.result(member.open(new GroupKey("c1")));
        GroupLease c2 = Await.result(member.open(new GroupKey("c2")));
        assertThat(Set.of(c0, c1, c2)).extracting(lease -> lease.address().getAddress().getHostAddress())
                .containsExactlyInAnyOrder("239.192.9.0", "239.192.9.2", "239.192.9.3")
                .doesNotContain("239.192.9.1");
        assertThat(Await.failure(member.open(new GroupKey("c3")))).isInstanceOf(RangeExhaustedException.class);
        assertThat(anyone.getChildren().forPath(LeaseZnodes.SLOTS)).hasSize(9);
    }

    private static void assertRejected(GroupAllocator member, CuratorFramework insider, String record, String data,
            String problem) throws Exception {
        insider.setData().forPath(record, data.getBytes(StandardCharsets.UTF_8));
        assertRejectedLookup(member, new GroupKey(record.substring(record.lastIndexOf('/') + 1)), record, problem);
    }

    private static void assertRejectedLookup(GroupAllocator member, GroupKey key, String where, String problem) {
        Throwable rejected = Await.failure(member.lookup(key));
        assertThat(rejected).isInstanceOf(MalformedZnodeException.class).hasMessageContaining(problem);
        assertThat(((MalformedZnodeException) rejected).where()).isEqualTo(where);
    }
}
