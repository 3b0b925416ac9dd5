package dev.canopy.cli.launch;

import dev.canopy.multicast.internal.fabric.udp.NetworkNamespaces;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Emulated hosts reachable over ssh, for tests: network namespaces on one bridge ({@link NetworkNamespaces}, names
 * starting {@value #PREFIX}); host 0 is the login host the test launches from, hosts 1 to n each run their own
 * {@code sshd} on their own address, with a host key and a client key pair made for this fixture. The ssh client
 * is given every file with {@link #sshArguments()} ({@code -F /dev/null}: the machine's ssh configuration and
 * keys are never used, nor is anything written to {@code ~/.ssh}). {@link #close()} kills every process left in the
 * namespaces, then deletes them and the keys.
 */
final class SshHosts implements AutoCloseable {

    /** {@code -Dcanopy.test.sshNamespacePrefix=...} gives runs that share a machine prefixes of their own. */
    static final String PREFIX = System.getProperty("canopy.test.sshNamespacePrefix", "canopy-ssh-");
    private static final Path SSHD = Path.of("/usr/sbin/sshd");
    private static final Path PRIVILEGE_SEPARATION = Path.of("/run/sshd");

    private final NetworkNamespaces namespaces;
    private final Path directory;
    private final List<Process> daemons = new ArrayList<>();

    private SshHosts(NetworkNamespaces namespaces, Path directory) {
        this.namespaces = namespaces;
        this.directory = directory;
    }

    /** Why the fixture cannot run here (not root, no iproute2, no OpenSSH), or empty. */
    static Optional<String> unavailableReason() {
        Optional<String> namespaces = NetworkNamespaces.unavailableReason();
        if (namespaces.isPresent()) {
            return namespaces;
        }
        if (!Files.isExecutable(SSHD) || !onPath("ssh") || !onPath("ssh-keygen")) {
            return Optional.of("OpenSSH is not installed (" + SSHD + ", ssh, ssh-keygen); Debian: apt-get install"
                    + " openssh-server openssh-client");
        }
        return Optional.empty();
    }

    /** A login host and {@code hosts} hosts running sshd. */
    static SshHosts create(int hosts) throws IOException, InterruptedException {
        NetworkNamespaces.removeStale(PREFIX);
        Path directory = Files.createTempDirectory("canopy-ssh-test-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        SshHosts fixture = new SshHosts(NetworkNamespaces.create(PREFIX, hosts + 1, Optional.empty()), directory);
        try {
            fixture.startDaemons(hosts);
            return fixture;
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            fixture.close();
            throw e;
        }
    }

    private void startDaemons(int hosts) throws IOException, InterruptedException {
        run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "canopy-test-host", "-f",
                directory.resolve("host_key").toString()));
        run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "canopy-test-client", "-f",
                directory.resolve("client_key").toString()));
        Files.copy(directory.resolve("client_key.pub"), directory.resolve("authorized_keys"));
        String hostKey = Files.readString(directory.resolve("host_key.pub")).strip();
        StringBuilder knownHosts = new StringBuilder();
        for (int host = 1; host <= hosts; host++) {
            knownHosts.append(address(host)).append(' ').append(hostKey).append('\n');
        }
        Files.writeString(directory.resolve("known_hosts"), knownHosts);
        Files.createDirectories(PRIVILEGE_SEPARATION); // sshd refuses to start without it (Debian makes it at boot)
        for (int host = 1; host <= hosts; host++) {
            Path config = directory.resolve("sshd_config-" + host);
            Files.writeString(config, String.join("\n",
                    "ListenAddress " + address(host),
                    "HostKey " + directory.resolve("host_key"),
                    "AuthorizedKeysFile " + directory.resolve("authorized_keys"),
                    "PidFile none",
                    "UsePAM no",
                    "StrictModes no",
                    "PermitRootLogin prohibit-password",
                    "PasswordAuthentication no",
                    "KbdInteractiveAuthentication no",
                    "MaxStartups 100",
                    "MaxSessions 100",
                    ""));
            Path log = directory.resolve("sshd-" + host + ".log");
            Process daemon = namespaces.exec(host, List.of(SSHD.toString(), "-D", "-e", "-f", config.toString()))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            daemons.add(daemon);
            int which = host;
            await(Duration.ofSeconds(20), () -> read(log).contains("Server listening on"),
                    () -> "sshd on host " + which + " did not start: " + read(log));
        }
    }

    /** The address of host {@code host} (0: the login host). */
    static String address(int host) {
        return NetworkNamespaces.addressOf(host);
    }

    /** The ssh client arguments that use this fixture's keys only. */
    String sshArguments() {
        return "-F /dev/null -i " + directory.resolve("client_key") + " -o UserKnownHostsFile="
                + directory.resolve("known_hosts") + " -o StrictHostKeyChecking=yes -o ConnectTimeout=20";
    }

    Path directory() {
        return directory;
    }

    /** A process builder running {@code command} on host {@code host}. */
    ProcessBuilder exec(int host, List<String> command) {
        return namespaces.exec(host, command);
    }

    /** The processes running on host {@code host} other than its sshd listener (the launcher's own on host 0). */
    List<ProcessHandle> processesOn(int host) {
        Object namespace = inode(Path.of("/run/netns", namespaces.hostNamespace(host)));
        List<Long> listeners = daemons.stream().map(Process::pid).toList();
        return ProcessHandle.allProcesses()
                .filter(process -> !listeners.contains(process.pid()))
                .filter(process -> namespace != null && namespace.equals(inode(Path.of("/proc", Long.toString(process.pid()),
                        "ns", "net"))))
                .toList();
    }

    private static Object inode(Path path) {
        try {
            return Files.getAttribute(path, "unix:ino");
        } catch (IOException | UnsupportedOperationException e) {
            return null; // a process that has just ended
        }
    }

    @Override
    public void close() {
        for (int host = 0; host < namespaces.hosts(); host++) {
            processesOn(host).forEach(ProcessHandle::destroyForcibly);
        }
        daemons.forEach(Process::destroyForcibly);
        for (Process daemon : daemons) {
            try {
                daemon.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        namespaces.close();
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            System.err.println("could not delete " + directory + ": " + e);
        }
    }

    static void await(Duration deadline, BooleanSupplier condition, Supplier<String> description)
            throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + deadline.toMillis() + " ms: " + description.get());
            }
            TimeUnit.MILLISECONDS.sleep(20); // polling interval of a deadline wait, not synchronisation
        }
    }

    static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
    }

    private static boolean onPath(String program) {
        return Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":"))
                .anyMatch(entry -> !entry.isEmpty() && Files.isExecutable(Path.of(entry, program)));
    }
}
