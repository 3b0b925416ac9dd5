package dev.canopy.collectives.run;

/**
 * A program {@code canopy launch --class NAME} runs in every process of a job. The class needs a
 * public no-argument constructor; {@link #run} gets the process's session (WORLD and its
 * collectives). Throwing fails the process, and the launch exits with the worst status.
 */
@FunctionalInterface
public interface CanopyProgram {

    void run(CanopySession session) throws Exception;
}
