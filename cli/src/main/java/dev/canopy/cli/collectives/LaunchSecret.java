package dev.canopy.cli.collectives;

import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.security.JobSecret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The job secret of a {@code canopy launch}: the file given with {@code --secret-file} (checked, and
 * left in place), or a new secret in a temporary file only its owner may read, deleted when the launch
 * ends. Children get the file's path (never the secret) in {@code CANOPY_SECRET_FILE}.
 */
final class LaunchSecret implements AutoCloseable {

    private final JobSecret secret;
    private final Path file;
    private final boolean temporary;

    private LaunchSecret(JobSecret secret, Path file, boolean temporary) {
        this.secret = secret;
        this.file = file;
        this.temporary = temporary;
    }

    /**
     * The secret file for the launch.
     *
     * @throws IllegalArgumentException when the given file is unusable, naming the fix
     */
    static LaunchSecret of(Optional<Path> given) throws IOException {
        if (given.isPresent()) {
            return new LaunchSecret(JobSecret.fromFile(given.get()), given.get().toAbsolutePath(), false);
        }
        JobSecret secret = JobSecret.generate();
        return new LaunchSecret(secret, secret.writeTemporary(), true);
    }

    /** The job's ZooKeeper identity, for sweeping the job's znodes after its processes end. */
    ZooKeeperCredentials zooKeeperCredentials() {
        return ZooKeeperCredentials.of(secret);
    }

    /** The secret itself, for a dashboard that reads the job's znodes. */
    JobSecret secret() {
        return secret;
    }

    /** The secret as its file holds it (64 hex digits), for hosts that get it over ssh's standard input. */
    String hex() throws IOException {
        return Files.readString(file).strip();
    }

    Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        if (temporary) {
            Files.deleteIfExists(file);
        }
    }
}
