package dev.canopy.topology.internal.replan;

/** What {@link ReplanPolicy} remembers between evaluations: consecutive evaluations that showed a clear improvement. */
public record ReplanState(int streak) {

    public static final ReplanState INITIAL = new ReplanState(0);

    public ReplanState {
        if (streak < 0) {
            throw new IllegalArgumentException("streak must be >= 0, got " + streak);
        }
    }
}
