package dev.canopy.dashboard.model;

import java.util.Locale;

/** A member as the dashboard shows it. */
public enum MemberState {
    /** Registered in ZooKeeper (before the start: waiting at the barrier). */
    JOINED,
    /** Its member znode is gone: a clean leave, or a crash once ZooKeeper expired its session. */
    LEFT,
    /** A failure detector in this JVM judged it failed, and no node heard it say goodbye (see {@code FailureVerdicts}). */
    FAILED;

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
