package dev.canopy.collectives.internal.leader;

/**
 * A plan znode whose content this job's secret did not seal for its path: written by someone with the job's
 * ZooKeeper identity but not its secret, copied from another path (another job's plan, another epoch), or written
 * unsealed. Members keep the plan they run on ({@link PlanSwitch}); a new leader publishes over it.
 */
public final class UntrustedPlanException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    UntrustedPlanException(String path, String why) {
        super("the plan at " + path + " is not trusted: " + why + "; it was not written by this job's plan leader"
                + " (a forgery, or a plan copied from another job or epoch), so it is not used. If the job's secret"
                + " changed, delete the job's plans and restart it");
    }
}
