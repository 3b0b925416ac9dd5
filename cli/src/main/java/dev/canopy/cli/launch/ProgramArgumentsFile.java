package dev.canopy.cli.launch;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * How a launched host hands the program's arguments to its {@code canopy node}s ({@code --arguments-file}): a JSON
 * array of strings in UTF-8, never a command line. A command line is re-encoded in the locale of whoever starts the
 * JVM, and an ssh session's is often POSIX (ASCII), which would turn "été" into "?t?"; a file keeps every byte.
 */
public final class ProgramArgumentsFile {

    /** The same bound as the plan line the arguments came in. */
    private static final long MAX_BYTES = LaunchPlan.MAX_LINE_CHARS;

    private ProgramArgumentsFile() {
    }

    /** Writes {@code arguments} to the new file {@code file} (mode 600). */
    static Path write(List<String> arguments, Path file) throws IOException {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        return Files.writeString(file, new JsonArray(arguments).encode(), StandardCharsets.UTF_8);
    }

    /**
     * Reads the arguments of {@code file}.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static List<String> read(Path file) {
        JsonArray array;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new IllegalArgumentException("--arguments-file " + file + " is over " + MAX_BYTES + " bytes");
            }
            array = new JsonArray(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalArgumentException("--arguments-file " + file + " cannot be read: " + e.getMessage(), e);
        } catch (DecodeException e) {
            throw new IllegalArgumentException("--arguments-file " + file + " is not a JSON array: " + e.getMessage(), e);
        }
        List<String> arguments = new ArrayList<>();
        for (Object value : array) {
            if (!(value instanceof String text)) {
                throw new IllegalArgumentException("--arguments-file " + file + " must hold strings only, found " + value);
            }
            arguments.add(text);
        }
        return arguments;
    }
}
