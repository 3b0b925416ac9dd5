package dev.canopy.cli.collectives;

import dev.canopy.cli.CanopyMain;
import dev.canopy.collectives.run.LauncherEnvironment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code canopy node} in a JVM of its own, as a launcher would start it: the environment the test gives
 * (and none of the test JVM's launcher variables nor its {@code CANOPY_ZK}), its output collected for the test to read.
 */
final class NodeProcesses {

    /** Variables a launcher sets; the test JVM's own (if it runs under Slurm, say) must not leak into a child. */
    private static final List<String> LAUNCHER_VARIABLES = List.of("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
            "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_SIZE", "SLURM_PROCID", "SLURM_NTASKS");

    /**
     * A started {@code canopy node}; its standard output and error go to {@code outputFile} (a file rather than a
     * pipe: {@link Process#destroy()} closes the pipes, and what the process prints while it stops would be lost).
     */
    record NodeProcess(Process process, Path outputFile) {

        /** Everything the process has printed so far. */
        String output() {
            try {
                return Files.readString(outputFile, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the output of canopy node in " + outputFile, e);
            }
        }

        /** Waits until the output contains {@code text}, or fails after {@code deadline} showing the output. */
        void awaitOutput(String text, Duration deadline) throws InterruptedException {
            long end = System.nanoTime() + deadline.toNanos();
            while (!output().contains(text)) {
                if (System.nanoTime() > end || !process.isAlive() && !output().contains(text)) {
                    throw new AssertionError("no \"" + text + "\" within " + deadline.toMillis() + " ms (alive: "
                            + process.isAlive() + "); output:\n" + output());
                }
                TimeUnit.MILLISECONDS.sleep(20); // polling interval of a deadline wait, not synchronisation
            }
        }

        /** The exit status, waiting at most {@code deadline} (then the process is killed and the test fails). */
        int exitStatus(Duration deadline) throws InterruptedException {
            if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("canopy node did not end within " + deadline.toMillis() + " ms; output:\n" + output());
            }
            return process.exitValue();
        }
    }

    private NodeProcesses() {
    }

    /**
     * Starts {@code canopy node ARGUMENTS} with {@code environment} added to a launcher-free copy of this JVM's,
     * its output in a new file of {@code directory}.
     */
    static NodeProcess start(Path directory, Map<String, String> environment, List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                CanopyMain.class.getName(), "node"));
        command.addAll(arguments);
        Path outputFile = Files.createTempFile(directory, "canopy-node-", ".out");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(outputFile.toFile());
        LAUNCHER_VARIABLES.forEach(builder.environment()::remove);
        builder.environment().remove(JobZooKeeper.ENV_ZOOKEEPER);
        builder.environment().putAll(environment);
        return new NodeProcess(builder.start(), outputFile);
    }

    static {
        // Keep this list and the one the product reads in step: a launcher variable missing here could leak.
        if (!LAUNCHER_VARIABLES.containsAll(LauncherEnvironment.RANK_VARIABLES)) {
            throw new IllegalStateException("NodeProcesses misses launcher variables of " + LauncherEnvironment.RANK_VARIABLES);
        }
    }
}
