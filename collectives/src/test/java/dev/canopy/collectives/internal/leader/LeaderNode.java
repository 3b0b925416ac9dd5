package dev.canopy.collectives.internal.leader;

import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.core.testing.ManualClock;
import dev.canopy.probes.internal.Link;
import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.forecast.ForecastSettings;
import dev.canopy.probes.internal.forecast.LinkForecasts;
import dev.canopy.topology.internal.replan.ReplanDecision;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * One node of a plan-leader test: its own ZooKeeper session, event-loop context, forecasts (fed through
 * the real probes API), plan leader and plan cache.
 */
final class LeaderNode implements AutoCloseable {

    static final Duration PROBE_PERIOD = Duration.ofSeconds(1);
    /** The secret every node of a test's job shares: it seals the plans. */
    static final JobSecret SECRET = JobSecret.generate();
    /** A single test server with short ticks caps sessions at 4 s; a cluster with 1 s ticks allows 8 s. */
    private static final int SESSION_MILLIS = 8000;

    final Member member;
    final Context context;
    final CuratorFramework client;
    final LinkForecasts forecasts;
    final PlanStore store;
    final PlanCache cache;
    final PlanLeader leader;
    final List<ReplanDecision> decisions = new CopyOnWriteArrayList<>();

    LeaderNode(Vertx vertx, String connectString, JobId job, Member member, ManualClock forecastClock,
            NanoClock leaderClock, PlanEvaluator evaluator, ForecastLatencies latencies, LeaderSettings settings) {
        this.member = member;
        this.context = vertx.getOrCreateContext();
        this.client = CuratorFrameworkFactory.newClient(connectString, SESSION_MILLIS, SESSION_MILLIS,
                new ExponentialBackoffRetry(100, 5));
        client.start();
        // Every sample reaches the leader: the plan policy, not the forecast notifier, is under test.
        this.forecasts = new LinkForecasts(ForecastSettings.DEFAULTS.withNotifyRelativeChange(0), forecastClock);
        this.store = new PlanStore(context, client, job, SECRET);
        this.cache = new PlanCache(context, client, job, store, 8);
        this.leader = new PlanLeader(context, client, job, SECRET, member, ForecastFeed.of(forecasts, context), latencies, evaluator,
                settings, leaderClock);
        leader.onDecision(decisions::add);
    }

    void start() {
        cache.start();
        Await.result(leader.start());
    }

    /** Records {@code samples} round trips of {@code rttMs} on the link, on the forecasts' own context. */
    Future<Void> record(Link link, double rttMs, int samples) {
        Promise<Void> done = Promise.promise();
        context.runOnContext(v -> {
            for (int i = 0; i < samples; i++) {
                forecasts.record(link, Metric.ROUND_TRIP_TIME, rttMs, PROBE_PERIOD);
            }
            done.complete();
        });
        return done.future();
    }

    boolean leads() {
        return leader.role() == PlanLeader.Role.LEADING;
    }

    @Override
    public void close() {
        Await.result(leader.close());
        cache.close();
        client.close();
    }
}
