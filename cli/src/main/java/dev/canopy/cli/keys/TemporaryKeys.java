package dev.canopy.cli.keys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A job CA and one shared node certificate, valid for a day, in a new temporary directory only its owner
 * may enter; deleted on {@link #close()}. For commands that run every process of a job themselves
 * ({@code canopy launch --tls}, {@code canopy bench p2p}).
 */
public final class TemporaryKeys implements AutoCloseable {

    private final Path directory;

    private TemporaryKeys(Path directory) {
        this.directory = directory;
    }

    public static TemporaryKeys create() throws IOException {
        Path directory = Files.createTempDirectory("canopy-tls-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        TemporaryKeys keys = new TemporaryKeys(directory);
        try {
            JobCertificates.write(directory, 0, 1);
        } catch (IOException | RuntimeException e) {
            keys.close();
            throw e;
        }
        return keys;
    }

    /** The directory, in the layout {@code --tls DIR} reads. */
    public Path directory() {
        return directory;
    }

    @Override
    public void close() throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }
}
