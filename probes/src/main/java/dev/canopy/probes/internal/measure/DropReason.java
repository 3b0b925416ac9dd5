package dev.canopy.probes.internal.measure;

/** Why an incoming probe frame was dropped unanswered. Every drop is counted under one of these. */
public enum DropReason {
    /** The frame names another job. */
    OTHER_JOB,
    /** The source rank is not in the rank table, or its member has departed. */
    NOT_A_MEMBER,
    /** The datagram came from another socket address than the member of its source rank listens on. */
    WRONG_SENDER_ADDRESS,
    /** The frame is addressed to another rank. */
    NOT_FOR_THIS_NODE,
    /** A reply that answers no probe in flight (late after a timeout, or duplicated). */
    UNEXPECTED_REPLY,
    /** A probe frame whose payload does not have the layout of {@link ProbeFrames}. */
    MALFORMED,
    /** Not a probe frame at all; nothing else on this node takes it. */
    NOT_A_PROBE,
    /** Arrived before this node had a rank table to check it against. */
    NO_MEMBERSHIP_YET
}
