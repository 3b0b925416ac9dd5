package dev.canopy.multicast.internal.groups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.model.MulticastRange;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client without the job's credentials (another job's, or none) cannot delete, take over, rewrite, read or
 * re-ACL a job's lease or its group record, and its sweeps leave held slots alone; the job's group stays.
 */
@Timeout(60)
class LeaseAclTest {

    private final LeaseFixture fixture = new LeaseFixture();

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void aForeignClientCannotDeleteOrStealALease() throws Exception {
        LeaseFixture.Job job = LeaseFixture.newJob("owner");
        GroupAllocator owner = fixture.allocator(job, MulticastRange.DEFAULT);
        GroupLease lease = Await.result(owner.open(new GroupKey("c1")));
        Slot slot = new Slot(GroupAllocatorTest.ip(lease.address()), lease.address().getPort());
        String slotPath = LeaseZnodes.slot(slot);
        String leasePath = LeaseZnodes.lease(slot);
        String record = LeaseZnodes.group(job.id(), lease.key());
        byte[] forged = "{\"job\":\"thief\",\"group\":\"c1\"}".getBytes(StandardCharsets.UTF_8);

        LeaseFixture.Job other = LeaseFixture.newJob("thief");
        for (Optional<ZooKeeperCredentials> credentials : List.of(Optional.of(other.credentials()),
                Optional.<ZooKeeperCredentials>empty())) {
            CuratorFramework foreign = fixture.rawClient(credentials);
            assertThatThrownBy(() -> foreign.delete().forPath(leasePath)).isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> foreign.delete().forPath(slotPath)).isInstanceOf(KeeperException.NotEmptyException.class);
            assertThatThrownBy(() -> foreign.create().forPath(slotPath + "/mine", forged))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> foreign.setData().forPath(leasePath, forged)).isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> foreign.getData().forPath(leasePath)).isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> foreign.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(slotPath))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> foreign.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(leasePath))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> foreign.delete().forPath(record)).isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> foreign.setData().forPath(record, forged)).isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> foreign.create().forPath(slotPath, forged)).isInstanceOf(KeeperException.NodeExistsException.class);
        }

        GroupAllocator thief = fixture.allocator(other, MulticastRange.DEFAULT);
        assertThat(Await.result(thief.sweep())).isZero();
        GroupLease theirs = Await.result(thief.open(new GroupKey("c1")));
        assertThat(theirs.address()).isNotEqualTo(lease.address());
        GroupLease again = Await.result(fixture.allocator(job, MulticastRange.DEFAULT).lookup(new GroupKey("c1")));
        assertThat(again.address()).isEqualTo(lease.address());
        assertThat(again.role()).isEqualTo(LeaseRole.MEMBER);
    }

    @Test
    void theSharedParentsLetEveryJobAddButNobodyRewriteOrReAclThem() throws Exception {
        Await.result(fixture.allocator(LeaseFixture.newJob("first"), MulticastRange.DEFAULT).open(new GroupKey("c1")));
        CuratorFramework anyone = fixture.rawClient(Optional.empty());

        for (String shared : List.of(LeaseZnodes.MULTICAST, LeaseZnodes.SLOTS)) {
            assertThat(anyone.getACL().forPath(shared)).isEqualTo(LeaseZnodes.SHARED_PARENT_ACL);
            assertThatThrownBy(() -> anyone.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(shared))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> anyone.setData().forPath(shared, new byte[1]))
                    .isInstanceOf(KeeperException.NoAuthException.class);
        }
    }
}
