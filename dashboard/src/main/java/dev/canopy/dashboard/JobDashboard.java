package dev.canopy.dashboard;

import dev.canopy.collectives.internal.timing.TimingsZnode;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.dashboard.metrics.DashboardMetrics;
import dev.canopy.dashboard.model.DashboardState;
import dev.canopy.dashboard.plan.PlanView;
import dev.canopy.dashboard.plan.ReplanGain;
import dev.canopy.dashboard.record.CollectiveRecorder;
import dev.canopy.dashboard.record.MemberTimingsFeed;
import dev.canopy.dashboard.zk.JobReader;
import dev.canopy.gridconfig.model.GridModel;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Optional;

/**
 * A dashboard that follows a job in ZooKeeper: its own ZooKeeper session (authenticated with the job's
 * credentials when the secret is given, since the job's znodes are readable by its members only), a
 * {@link JobReader} every {@value #READ_INTERVAL_MS} ms, and the {@link Dashboard} server. Used by
 * {@code canopy dashboard}, and by {@code canopy demo} and {@code canopy launch} with {@code --dashboard}.
 */
public final class JobDashboard {

    static final long READ_INTERVAL_MS = 500;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);

    private final ZooKeeperSession session;
    private final JobReader reader;
    private final Dashboard dashboard;
    private final DashboardState state;

    private JobDashboard(ZooKeeperSession session, JobReader reader, Dashboard dashboard, DashboardState state) {
        this.session = session;
        this.reader = reader;
        this.dashboard = dashboard;
        this.state = state;
    }

    /**
     * @param zooKeeperTls how to reach a ZooKeeper that takes TLS only ({@code --zk-tls}); empty for plain TCP
     * @param secret the job's secret; without it only jobs with open znodes can be read, and no collectives
     * @param recorder the collectives of members in this JVM, if any; without, the collectives the members publish
     *        (their timings in ZooKeeper, which need the secret)
     */
    public static Future<JobDashboard> start(Vertx vertx, DashboardOptions options, String zooKeeper,
            Optional<ZooKeeperTls> zooKeeperTls, JobId job, Optional<JobSecret> secret, GridModel grid,
            Optional<CollectiveRecorder> recorder) {
        return start(vertx, options, zooKeeper, zooKeeperTls, job, secret, grid, recorder, DashboardMetrics.newRegistry());
    }

    /** As above, with {@code registry}'s figures on {@code /metrics} beside the dashboard's own. */
    public static Future<JobDashboard> start(Vertx vertx, DashboardOptions options, String zooKeeper,
            Optional<ZooKeeperTls> zooKeeperTls, JobId job, Optional<JobSecret> secret, GridModel grid,
            Optional<CollectiveRecorder> recorder, PrometheusMeterRegistry registry) {
        DashboardState state = new DashboardState(job.name());
        Optional<MemberTimingsFeed> published = recorder.isPresent() ? Optional.empty()
                : secret.map(key -> new MemberTimingsFeed(new CollectiveRecorder(), new TimingsZnode(key), new PlanView(grid), job));
        Optional<CollectiveRecorder> recorded = recorder.or(() -> published.map(MemberTimingsFeed::recorder));
        return ZooKeeperSession.open(vertx, zooKeeper, NodeOptions.DEFAULT_SESSION_TIMEOUT, CONNECT_TIMEOUT,
                        secret.map(ZooKeeperCredentials::of), zooKeeperTls)
                .compose(session -> {
                    JobReader reader = JobReader.start(vertx, session.client(), job, secret, state, new ReplanGain(grid), published,
                            Duration.ofMillis(READ_INTERVAL_MS));
                    return Dashboard.start(vertx, options, state, grid, recorded, registry)
                            .map(dashboard -> new JobDashboard(session, reader, dashboard, state))
                            .recover(e -> reader.close().transform(stopped -> session.close())
                                    .transform(closed -> Future.failedFuture(e)));
                });
    }

    public DashboardState state() {
        return state;
    }

    public String url() {
        return dashboard.url();
    }

    public int port() {
        return dashboard.port();
    }

    /** Reads ZooKeeper once now (the periodic reads go on); for callers that want a fresh state at once. */
    public Future<Void> refresh() {
        return reader.readOnce();
    }

    public Future<Void> close() {
        return reader.close().transform(read -> dashboard.close()).eventually(session::close);
    }
}
