package dev.canopy.cli.collectives;

import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ZooKeeper a {@code canopy node} joins through, from its {@code --zk} option. A connect string is used
 * as given. {@code --zk embedded} means the job brings its own: the launcher's {@code CANOPY_ZK}, when set,
 * wins; otherwise process 0 starts an {@link EmbeddedZooKeeper} on its {@code --host} address (any free port)
 * and publishes it in the {@code --zk-file} ({@link ZooKeeperFile}), and every other process waits for that
 * file, at most {@code --zk-wait}.
 *
 * <p>{@link #close()} of process 0 waits until the job's other members have left ({@link JobMembersGone}), then
 * stops the server and deletes the file. If process 0 ends first anyway (a signal, a crash), the server ends
 * with it: the other processes lose ZooKeeper and leave the job with "lost contact with ZooKeeper" after their
 * session timeout.
 */
final class JobZooKeeper implements AutoCloseable {

    static final String EMBEDDED = "embedded";
    static final String ENV_ZOOKEEPER = "CANOPY_ZK";
    private static final int MAX_CONNECT_STRING = 1024;
    private static final Logger LOG = LoggerFactory.getLogger(JobZooKeeper.class);

    /** What the node was told; {@code bindHost}/{@code advertisedHost} are its checked {@code --host} addresses. */
    record Request(String zkOption, Optional<Path> zkFile, Duration zkWait, Map<String, String> environment,
            int processIndex, String bindHost, String advertisedHost, JobId job, JobSecret secret) {
    }

    private final String connectString;
    private final Optional<Served> served;

    /** Process 0's server, its file, and what it needs to see the job end. */
    private record Served(EmbeddedZooKeeper server, Path file, JobId job, JobSecret secret, Thread fileRemover) {
    }

    private JobZooKeeper(String connectString, Optional<Served> served) {
        this.connectString = connectString;
        this.served = served;
    }

    /**
     * Resolves the request: may start a server (process 0) or wait for the file (the others). Blocking.
     * Throws {@link IllegalArgumentException} for options or a file that cannot work and
     * {@link IllegalStateException} when the file does not come in time, each with a message for the user.
     */
    static JobZooKeeper open(Request request) throws InterruptedException {
        if (!EMBEDDED.equals(request.zkOption())) {
            if (request.zkFile().isPresent()) {
                throw new IllegalArgumentException("--zk-file is only used with --zk embedded; drop it, or write --zk embedded");
            }
            return new JobZooKeeper(request.zkOption(), Optional.empty());
        }
        String fromLauncher = request.environment().get(ENV_ZOOKEEPER);
        if (fromLauncher != null && !fromLauncher.isBlank()) {
            LOG.info("--zk embedded: using {}={} from the environment", ENV_ZOOKEEPER, fromLauncher);
            return new JobZooKeeper(checkedConnectString(fromLauncher), Optional.empty());
        }
        Path file = request.zkFile().orElseThrow(() -> new IllegalArgumentException("--zk embedded needs --zk-file PATH"
                + " (a path on a file system every process of the job sees, e.g. under $HOME) or " + ENV_ZOOKEEPER
                + " in the environment, to tell the other processes where process 0's ZooKeeper is"));
        if (request.processIndex() != 0) {
            return new JobZooKeeper(ZooKeeperFileWait.await(file, request.job(), request.zkWait()), Optional.empty());
        }
        return serve(request, file);
    }

    private static JobZooKeeper serve(Request request, Path file) {
        EmbeddedZooKeeper server = EmbeddedZooKeeper.start(request.bindHost());
        String connect = ZooKeeperFile.connectString(request.advertisedHost(), server.port());
        try {
            ZooKeeperFile.publish(file, request.job(), connect);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw new IllegalArgumentException("cannot write the --zk-file " + file + ": " + e.getMessage()
                    + "; give a path in an existing directory this user may write, shared by every host", e);
        }
        // A stopped process 0 (SIGTERM) leaves no file pointing at a dead server behind.
        Thread fileRemover = new Thread(() -> ZooKeeperFile.removeIfStill(file, request.job(), connect), "canopy-zk-file-remover");
        Runtime.getRuntime().addShutdownHook(fileRemover);
        LOG.info("--zk embedded: process 0 serves ZooKeeper at {}, published in {}", connect, file);
        return new JobZooKeeper(connect, Optional.of(new Served(server, file, request.job(), request.secret(), fileRemover)));
    }

    /** A connect string from the environment, checked like any input: bounded, printable, no spaces. */
    private static String checkedConnectString(String value) {
        if (value.length() > MAX_CONNECT_STRING || !value.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException(ENV_ZOOKEEPER + " is not a ZooKeeper connect string (host:port,...):"
                    + " at most " + MAX_CONNECT_STRING + " printable characters without spaces");
        }
        return value;
    }

    /** The connect string to join through. */
    String connectString() {
        return connectString;
    }

    /** For process 0 of an embedded job: waits for the other members to leave, stops the server, deletes the file. */
    @Override
    public void close() {
        if (served.isEmpty()) {
            return;
        }
        Served serving = served.get();
        try {
            JobMembersGone.await(connectString, serving.job(), serving.secret());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("cannot see whether the job's other members have left the embedded ZooKeeper ({}); stopping it", e.toString());
        } finally {
            serving.server().close();
            ZooKeeperFile.removeIfStill(serving.file(), serving.job(), connectString);
            try {
                Runtime.getRuntime().removeShutdownHook(serving.fileRemover());
            } catch (IllegalStateException shuttingDown) {
                // The hook runs anyway and finds the file gone.
            }
        }
    }
}
