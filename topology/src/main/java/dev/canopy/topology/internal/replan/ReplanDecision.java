package dev.canopy.topology.internal.replan;

/**
 * The outcome of one evaluation: re-plan or keep, a sentence for the log saying why, and the state to
 * pass to the next evaluation.
 */
public record ReplanDecision(Verdict verdict, String reason, ReplanState next) {

    public enum Verdict {
        REPLAN,
        KEEP
    }

    public boolean replan() {
        return verdict == Verdict.REPLAN;
    }
}
