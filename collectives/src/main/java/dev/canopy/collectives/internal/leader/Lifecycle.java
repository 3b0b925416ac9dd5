package dev.canopy.collectives.internal.leader;

/** The lifecycle of a {@link PlanLeader} or {@link PlanCache}, moved by compare-and-set; a closed one is not restarted. */
public enum Lifecycle {
    LATENT,
    STARTED,
    CLOSED
}
