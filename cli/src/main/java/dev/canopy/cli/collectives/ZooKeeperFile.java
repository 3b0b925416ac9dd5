package dev.canopy.cli.collectives;

import dev.canopy.core.node.JobId;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The file through which process 0 of a {@code --zk embedded} job tells the others where its embedded
 * ZooKeeper listens ({@code --zk-file}, on a file system every process sees). Three lines of ASCII:
 *
 * <pre>
 * canopy-zookeeper 1
 * job JOB
 * connect HOST:PORT
 * </pre>
 *
 * It is written to a temporary file of the same directory and renamed over the path, so a reader sees the
 * whole old content or the whole new one. It is read as hostile input: at most {@value #MAX_BYTES} bytes,
 * a regular file, exactly that form, a host made of name or IP literal characters and a port from 1 to 65535.
 * The job line lets a reader ignore a stale file of another job.
 */
final class ZooKeeperFile {

    static final int MAX_BYTES = 512;
    private static final String HEADER = "canopy-zookeeper 1";
    private static final Pattern FORM = Pattern.compile(
            HEADER + "\njob ([A-Za-z0-9._-]{1,64})\nconnect ((?:[A-Za-z0-9._-]{1,253}|\\[[0-9A-Fa-f:.%]{2,64}\\]):(\\d{1,5}))\n?");

    /** What a read found. */
    sealed interface Reading permits Absent, Published, OtherJob, Malformed {
    }

    /** No file (yet). */
    record Absent() implements Reading {
    }

    /** The file names this job: its ZooKeeper's connect string. */
    record Published(String connectString) implements Reading {
    }

    /** A well-formed file of another job (stale, or a path shared by mistake). */
    record OtherJob(String job) implements Reading {
    }

    /** Not a file this program writes; {@code why} says what is wrong. */
    record Malformed(String why) implements Reading {
    }

    private ZooKeeperFile() {
    }

    /** The connect string for a server listening on {@code host} (an IP literal or a name) and {@code port}. */
    static String connectString(String host, int port) {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** Writes {@code file} atomically (temporary file in the same directory, then rename), mode 0644 where POSIX. */
    static void publish(Path file, JobId job, String connectString) throws IOException {
        String content = HEADER + "\njob " + job.name() + "\nconnect " + connectString + "\n";
        if (!FORM.matcher(content).matches()) {
            throw new IllegalArgumentException("cannot publish ZooKeeper address " + connectString + ": not host:port");
        }
        Path absolute = file.toAbsolutePath();
        Path temporary = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName() + ".", ".tmp");
        try {
            Files.writeString(temporary, content, StandardCharsets.US_ASCII);
            try {
                Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-r--r--"));
            } catch (UnsupportedOperationException notPosix) {
                // Only host:port is in it: the file system's default permissions are fine.
            }
            try {
                Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the file system of " + absolute + " cannot rename atomically; choose a --zk-file"
                        + " on another file system", e);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** Reads {@code file} for {@code job}. Never blocks on a special file: only regular files are opened. */
    static Reading read(Path file, JobId job) {
        byte[] bytes;
        try {
            if (!Files.exists(file)) {
                return new Absent();
            }
            if (!Files.isRegularFile(file)) {
                return new Malformed("it is not a regular file");
            }
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(MAX_BYTES + 1);
            }
        } catch (NoSuchFileException gone) {
            return new Absent();
        } catch (IOException e) {
            return new Malformed("it cannot be read: " + e.getMessage());
        }
        if (bytes.length > MAX_BYTES) {
            return new Malformed("it is longer than " + MAX_BYTES + " bytes");
        }
        for (byte b : bytes) {
            if (b != '\n' && (b < 0x20 || b > 0x7e)) {
                return new Malformed("it holds a byte that is not printable ASCII (0x" + Integer.toHexString(b & 0xff) + ")");
            }
        }
        Matcher matcher = FORM.matcher(new String(bytes, StandardCharsets.US_ASCII));
        if (!matcher.matches()) {
            return new Malformed("it is not \"" + HEADER + "\", \"job JOB\", \"connect HOST:PORT\" on three lines");
        }
        int port = Integer.parseInt(matcher.group(3));
        if (port < 1 || port > 65_535) {
            return new Malformed("its port " + port + " is not between 1 and 65535");
        }
        return matcher.group(1).equals(job.name()) ? new Published(matcher.group(2)) : new OtherJob(matcher.group(1));
    }

    /** Deletes {@code file} if it still names {@code job} at {@code connectString} (a later job's file stays). */
    static void removeIfStill(Path file, JobId job, String connectString) {
        if (read(file, job) instanceof Published published && published.connectString().equals(connectString)) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // Best effort: a stale file is harmless, its readers check the job and reach no server.
            }
        }
    }
}
