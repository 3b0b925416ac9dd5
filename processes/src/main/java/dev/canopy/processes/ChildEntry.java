package dev.canopy.processes;

/**
 * What a started child JVM runs once it knows which program it is ({@link ChildMain}): the layer above
 * (the collectives' program runner) implements it, so this module starts processes without knowing how a
 * program joins its job. An implementation needs a public no-argument constructor.
 *
 * <p>A warm child calls {@link #warmUp()} as soon as it starts and then waits for its binding; a cold child
 * gets its binding at once. Either way {@link #run} runs once, on the main thread, and its result is the
 * process's exit status.
 */
public interface ChildEntry {

    /** Loads and initialises what every program needs (classes, thread pools), before a binding is known. */
    default void warmUp() {
    }

    /**
     * Runs {@code binding}'s program as process {@link ChildBinding#processIndex()} of its job; returns the exit
     * status: 0 when the program ended normally, {@link ChildMain#CANNOT_RUN} when its class cannot be run.
     */
    int run(ChildBinding binding);
}
