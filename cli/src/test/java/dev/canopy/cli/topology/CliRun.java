package dev.canopy.cli.topology;

import dev.canopy.cli.CanopyMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/** One captured run of the canopy command line. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = CanopyMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new CliRun(exit, out.toString(), err.toString());
    }

    /** A file of {@code shared/latency/}, found by walking up from the working directory. */
    static Path sharedLatency(String fileName) {
        for (Path at = Path.of("").toAbsolutePath(); at != null; at = at.getParent()) {
            Path file = at.resolve("shared/latency").resolve(fileName);
            if (Files.isRegularFile(file)) {
                return file;
            }
        }
        throw new IllegalStateException("shared/latency/" + fileName + " not found above " + Path.of("").toAbsolutePath()
                + "; check out the shared data beside the repository");
    }
}
