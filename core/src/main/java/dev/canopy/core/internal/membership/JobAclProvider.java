package dev.canopy.core.internal.membership;

import java.util.Collections;
import java.util.List;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;

/**
 * The ACLs of the znodes a Canopy client creates. With {@link ZooKeeperCredentials} ({@link #SECURED})
 * everything it creates belongs to its credentials ({@link ZooDefs.Ids#CREATOR_ALL_ACL}: the server records
 * the {@code digest} identity the client authenticated with, so client and server never disagree on how
 * the digest is computed); without ({@link #OPEN}) everything is open. Either way the parents every job
 * and every grid's settings share, {@code /canopy}, {@code /canopy/jobs} and {@code /canopy/config}, are
 * created so that anyone may read them, add a job (or a grid) and remove an empty one, but nobody may rewrite
 * or re-ACL them (no WRITE, no ADMIN) and lock everyone out. A grid's settings under {@code /canopy/config}
 * (the calibration) belong to the credentials that wrote them, like a job's znodes.
 */
final class JobAclProvider implements ACLProvider {

    static final JobAclProvider SECURED = new JobAclProvider(ZooDefs.Ids.CREATOR_ALL_ACL);
    static final JobAclProvider OPEN = new JobAclProvider(ZooDefs.Ids.OPEN_ACL_UNSAFE);

    // Not List.of: ZooKeeper's create asks the list whether it contains null, which List.of answers with an NPE.
    static final List<ACL> SHARED_PARENT_ACL = Collections.singletonList(new ACL(
            ZooDefs.Perms.READ | ZooDefs.Perms.CREATE | ZooDefs.Perms.DELETE, ZooDefs.Ids.ANYONE_ID_UNSAFE));

    static final String DIGEST = "digest";

    private final List<ACL> jobAcl;

    private JobAclProvider(List<ACL> jobAcl) {
        this.jobAcl = jobAcl;
    }

    @Override
    public List<ACL> getDefaultAcl() {
        return jobAcl;
    }

    @Override
    public List<ACL> getAclForPath(String path) {
        return JobZnodes.isSharedParent(path) ? SHARED_PARENT_ACL : jobAcl;
    }

    /** Whether {@code acl} (read from a job's root) gives access to exactly one digest identity: {@code user}'s. */
    static boolean belongsTo(List<ACL> acl, ZooKeeperCredentials credentials) {
        if (acl.size() != 1) {
            return false;
        }
        Id id = acl.get(0).getId();
        return DIGEST.equals(id.getScheme()) && id.getId().startsWith(credentials.user() + ":");
    }

    /** Whether {@code acl} lets anyone at all do everything: what a job root of a job without credentials has. */
    static boolean isOpen(List<ACL> acl) {
        return acl.stream().anyMatch(entry -> entry.getId().equals(ZooDefs.Ids.ANYONE_ID_UNSAFE)
                && entry.getPerms() == ZooDefs.Perms.ALL);
    }
}
