package dev.canopy.core.internal.failure;

/** What made a node consider a member failed, strongest first. */
public enum Evidence {
    /** Its connection to this node closed or was reset without a goodbye before. */
    CONNECTION_LOST("its connection to this node closed without a goodbye (the process died or the link broke)"),
    /** A heartbeat frame to it could not be sent: it cannot be connected to. */
    SEND_FAILED("it cannot be connected to"),
    /** Nothing heard from it for the heartbeat timeout. */
    HEARTBEAT_MISSED("no heartbeat from it within the heartbeat timeout"),
    /** Its member znode was deleted without a goodbye: its ZooKeeper session expired (or the goodbye was lost). */
    MEMBER_ZNODE_DELETED("its member znode was deleted without a goodbye (its ZooKeeper session expired)"),
    /** A member that left named it as the failure it left because of. */
    REPORTED_BY_PEER("a member that left reported it failed");

    private final String description;

    Evidence(String description) {
        this.description = description;
    }

    /** A sentence fragment saying what happened, for failure messages. */
    public String description() {
        return description;
    }
}
