package dev.canopy.multicast.internal.groups;

/** Whether this process holds a group's lease (and releases it) or only uses the group. */
public enum LeaseRole {
    /** This process's ZooKeeper session holds the lease; it ends with the session or {@link GroupAllocator#release}. */
    OWNER,
    /** Another member of the job holds the lease; this process uses the address. */
    MEMBER
}
