package dev.canopy.cli.plot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Where the commands write their pictures: checked before a long run, written after it. */
public final class PlotFile {

    private PlotFile() {
    }

    /** Why {@code file} cannot be written, found before the command spends time measuring; empty when it can. */
    public static Optional<String> problem(String option, Path file) {
        Path parent = file.toAbsolutePath().getParent();
        if (Files.isDirectory(file)) {
            return Optional.of(option + " " + file + " is a directory; give a file name such as plot.svg");
        }
        if (parent == null || !Files.isDirectory(parent)) {
            return Optional.of(option + " " + file + ": the directory " + parent + " does not exist; create it first");
        }
        if (!Files.isWritable(parent) || (Files.exists(file) && !Files.isWritable(file))) {
            return Optional.of(option + " " + file + " is not writable");
        }
        return Optional.empty();
    }

    /** Writes {@code svg}; the message names the option and the file when it fails. */
    public static Optional<String> write(String option, Path file, String svg) {
        try {
            Files.writeString(file, svg);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("could not write " + option + " " + file + ": " + e.getMessage());
        }
    }
}
