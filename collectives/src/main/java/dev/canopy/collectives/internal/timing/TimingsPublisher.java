package dev.canopy.collectives.internal.timing;

import dev.canopy.core.internal.security.RateLimitedWarnings;
import dev.canopy.core.node.JobId;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one member's {@link OperationTimings} to its {@link TimingsZnode} for the dashboards of the job: every
 * {@code interval}, if its collectives changed since the last write and a dashboard watches the job (an ephemeral
 * child of {@link TimingsZnode#dashboardsPath}), so a job nobody watches costs no ZooKeeper writes and a watched
 * one at most one write per member per interval. The ZooKeeper calls run on a worker thread, one at a time (an
 * interval that finds one under way skips); the event loops never wait for them. A failed write is logged (at most
 * once a minute) and retried at the next interval.
 */
public final class TimingsPublisher {

    /** The default interval: a dashboard shows an operation within about a second of its completion. */
    public static final Duration INTERVAL = Duration.ofMillis(500);
    private static final Logger LOG = LoggerFactory.getLogger(TimingsPublisher.class);

    private final Vertx vertx;
    private final CuratorFramework client;
    private final JobId job;
    private final String member;
    private final int rank;
    private final OperationTimings timings;
    private final TimingsZnode znode;
    private final AtomicBoolean writing = new AtomicBoolean();
    private final RateLimitedWarnings warnings = new RateLimitedWarnings(TimeUnit.MINUTES.toNanos(1), 1, System::nanoTime);
    private final long timer;
    private volatile Future<Void> inFlight = Future.succeededFuture();
    // Written by one write at a time (the writing flag); read by the timer to skip the worker when nothing changed.
    private volatile long publishedVersion;

    private TimingsPublisher(Vertx vertx, CuratorFramework client, JobId job, String member, int rank,
            OperationTimings timings, TimingsZnode znode, Duration interval) {
        this.vertx = vertx;
        this.client = client;
        this.job = job;
        this.member = member;
        this.rank = rank;
        this.timings = timings;
        this.znode = znode;
        this.timer = vertx.setPeriodic(interval.toMillis(), id -> publish());
    }

    /**
     * Starts publishing the timings of member {@code member} (rank {@code rank}) through {@code client}, a started
     * client with the job's credentials (its ACL provider gives the znodes the job's ACL); the caller keeps the client.
     */
    public static TimingsPublisher start(Vertx vertx, CuratorFramework client, JobId job, String member, int rank,
            OperationTimings timings, TimingsZnode znode, Duration interval) {
        return new TimingsPublisher(vertx, client, job, member, rank, timings, znode, interval);
    }

    /** Publishes now if something changed and no write is under way; completes when that write is done. */
    public Future<Void> publish() {
        if (timings.version() == publishedVersion) {
            return Future.succeededFuture();
        }
        if (!writing.compareAndSet(false, true)) {
            return inFlight;
        }
        Future<Void> write = vertx.executeBlocking(() -> {
            try {
                write();
                return null;
            } finally {
                writing.set(false);
            }
        }, false);
        inFlight = write;
        return write;
    }

    private void write() {
        OperationTimings.Snapshot snapshot = timings.snapshot();
        if (snapshot.version() == publishedVersion) {
            return;
        }
        String path = TimingsZnode.memberPath(job, member);
        try {
            if (!watched()) {
                return;
            }
            byte[] data = znode.encode(job, new TimingsZnode.MemberTimings(member, rank, snapshot.operations()));
            try {
                client.setData().forPath(path, data);
            } catch (KeeperException.NoNodeException first) {
                client.create().creatingParentContainersIfNeeded().forPath(path, data);
            }
            publishedVersion = snapshot.version();
        } catch (Exception e) {
            RateLimitedWarnings.Decision decision = warnings.attempt(path);
            if (decision.emit()) {
                LOG.warn("could not publish this member's collective timings to {} for the dashboard: {} ({} more"
                        + " failures since the last warning; retrying every interval)", path, e.toString(),
                        decision.suppressed());
            }
        }
    }

    /** Whether a dashboard watches the job (the job's root exists then, so the write does not resurrect an ended job). */
    private boolean watched() throws Exception {
        try {
            return !client.getChildren().forPath(TimingsZnode.dashboardsPath(job)).isEmpty();
        } catch (KeeperException.NoNodeException e) {
            return false;
        }
    }

    /** Stops the timer and publishes what is left (the last operations before the member leaves). */
    public Future<Void> close() {
        vertx.cancelTimer(timer);
        return inFlight.transform(previous -> publish()).otherwiseEmpty();
    }

    /** Stops the timer without a last write (a member leaving after a failure does not wait for ZooKeeper). */
    public void stop() {
        vertx.cancelTimer(timer);
    }
}
