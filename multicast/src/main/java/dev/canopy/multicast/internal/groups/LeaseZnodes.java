package dev.canopy.multicast.internal.groups;

import dev.canopy.core.internal.membership.JobZnodes;
import dev.canopy.core.node.JobId;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * Where leases live in ZooKeeper.
 *
 * <pre>
 * /canopy/multicast/slots                      shared by every job: anyone may list, add and remove an empty child
 *   239.192.0.5:45000                          a taken slot (container: the job's ACL, and READ for anyone)
 *     lease                                    ephemeral, the owner's session; data {"job": ..., "group": ...}
 * /canopy/jobs/&lt;job&gt;/multicast-groups       container, the job's ACL
 *   c1                                         ephemeral, the same session; data {"slot": "239.192.0.5:45000"}
 * </pre>
 *
 * A slot, its lease and the group's record are created together in one transaction and deleted together,
 * so a slot without a lease was left by a session that ended: anyone may delete it. ZooKeeper lets a client
 * delete a znode if it may DELETE in the parent and the znode has no children, so another job can neither
 * delete a held slot (it has a child) nor its lease (the slot's ACL is the job's).
 */
final class LeaseZnodes {

    static final String CANOPY = "/canopy";
    static final String MULTICAST = "/canopy/multicast";
    static final String SLOTS = "/canopy/multicast/slots";
    static final String LEASE = "lease";

    /**
     * The ACL of the shared parents, as core gives {@code /canopy} and {@code /canopy/jobs}: anyone may read,
     * add and remove children, nobody may rewrite or re-ACL them. (Not List.of: ZooKeeper's create asks the
     * list whether it contains null, which List.of answers with an NPE.)
     */
    static final List<ACL> SHARED_PARENT_ACL = Collections.singletonList(new ACL(
            ZooDefs.Perms.READ | ZooDefs.Perms.CREATE | ZooDefs.Perms.DELETE, ZooDefs.Ids.ANYONE_ID_UNSAFE));

    /**
     * A slot's ACL with the job's credentials: everything for them, READ for anyone, so that any job's sweeper
     * can see whether a lease still holds the slot (ZooKeeper's exists() needs READ), but nobody else may add a
     * lease under it. Without credentials everything is open, as every znode of such a job.
     */
    static List<ACL> slotAcl(boolean withCredentials) {
        return withCredentials
                ? Arrays.asList(new ACL(ZooDefs.Perms.ALL, ZooDefs.Ids.AUTH_IDS), new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE))
                : ZooDefs.Ids.OPEN_ACL_UNSAFE;
    }

    private LeaseZnodes() {
    }

    static String slot(Slot slot) {
        return SLOTS + "/" + slot.name();
    }

    static String lease(Slot slot) {
        return slot(slot) + "/" + LEASE;
    }

    static String groups(JobId job) {
        return JobZnodes.root(job) + "/multicast-groups";
    }

    static String group(JobId job, GroupKey key) {
        return groups(job) + "/" + key.name();
    }
}
