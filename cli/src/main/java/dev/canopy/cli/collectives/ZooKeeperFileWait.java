package dev.canopy.cli.collectives;

import dev.canopy.core.node.JobId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits, bounded, until process 0 of a {@code --zk embedded} job has published its ZooKeeper in the
 * {@code --zk-file} ({@link ZooKeeperFile}). The file is polled: a shared file system (NFS, Lustre) does not
 * tell one host about another host's writes. A file of another job is waited past (process 0 of this job will
 * replace it); a malformed file is an error at once (process 0 writes whole files only, so no wait mends it).
 */
final class ZooKeeperFileWait {

    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperFileWait.class);
    private static final Duration POLL = Duration.ofMillis(100);

    private ZooKeeperFileWait() {
    }

    /**
     * The connect string {@code file} gives for {@code job}, as soon as it does. Throws
     * {@link IllegalArgumentException} for a malformed file and {@link IllegalStateException} when
     * {@code wait} passes first, both with a message naming the file and the fix.
     */
    static String await(Path file, JobId job, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        boolean logged = false;
        while (true) {
            ZooKeeperFile.Reading last = ZooKeeperFile.read(file, job);
            if (last instanceof ZooKeeperFile.Published published) {
                return published.connectString();
            }
            if (last instanceof ZooKeeperFile.Malformed malformed) {
                throw new IllegalArgumentException("the --zk-file " + file
                        + " is not a ZooKeeper address file written by canopy node: " + malformed.why()
                        + "; delete it, or give a --zk-file path that only this job's processes use");
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException(timedOut(file, job, wait, last));
            }
            if (!logged) {
                LOG.info("waiting up to {} s for process 0 to publish its embedded ZooKeeper in {}", wait.toSeconds(), file);
                logged = true;
            }
            TimeUnit.MILLISECONDS.sleep(POLL.toMillis()); // polling interval of a deadline wait
        }
    }

    private static String timedOut(Path file, JobId job, Duration wait, ZooKeeperFile.Reading last) {
        String found = last instanceof ZooKeeperFile.OtherJob other
                ? file + " names job " + other.job() + ", not this job " + job.name() + " (a stale file of another job)"
                : file + " does not exist";
        return "process 0 of job " + job.name() + " did not publish its embedded ZooKeeper within " + wait.toMillis()
                + " ms: " + found + "; check that process 0 runs with --zk embedded and the same --job and --zk-file,"
                + " that the file's directory is shared by every host, or wait longer with --zk-wait";
    }
}
