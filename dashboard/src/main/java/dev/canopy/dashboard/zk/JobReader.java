package dev.canopy.dashboard.zk;

import dev.canopy.collectives.internal.leader.PlanStore;
import dev.canopy.collectives.internal.leader.PublishedPlan;
import dev.canopy.core.internal.membership.JobMemberZnodes;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.security.JobSecret;
import dev.canopy.dashboard.model.DashboardState;
import dev.canopy.dashboard.model.GridEvent;
import dev.canopy.dashboard.model.GridMember;
import dev.canopy.dashboard.model.JobSnapshot;
import dev.canopy.dashboard.model.MemberState;
import dev.canopy.dashboard.plan.ReplanGain;
import dev.canopy.dashboard.record.MemberTimingsFeed;
import dev.canopy.probes.internal.measure.SitePairForecast;
import dev.canopy.probes.internal.measure.SiteSummary;
import dev.canopy.probes.internal.measure.SiteSummaryPublisher;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows one job in ZooKeeper for the dashboard: every {@code interval} it reads the member znodes and the
 * start record, the current plan epoch (and the plans published since the last read) and the site
 * representatives' forecast summaries (and, given a {@link MemberTimingsFeed}, the members' collective timings), and writes what changed into the {@link DashboardState}, with an event
 * for every join, leave and re-plan. Reads run on a worker thread with Curator's blocking API; one at a time.
 * A read that fails (ZooKeeper unreachable, a znode mid-change) keeps the last state and shows the error as the
 * source's status; the next read tries again, so the dashboard survives ZooKeeper reconnects.
 */
public final class JobReader {

    private static final Logger LOG = LoggerFactory.getLogger(JobReader.class);
    private static final long PLAN_READ_TIMEOUT_MS = 5_000;

    private final Vertx vertx;
    private final CuratorFramework client;
    private final JobId job;
    private final DashboardState state;
    /** Plans are sealed under the job secret: a dashboard without it shows none. */
    private final Optional<PlanStore> plans;
    private final ReplanGain gain;
    private final Optional<MemberTimingsFeed> timings;
    private final AtomicBoolean reading = new AtomicBoolean();
    private final long timer;
    private volatile boolean closed;
    private volatile Future<Void> inFlight = Future.succeededFuture();
    // Touched by one read at a time (the reading flag), on worker threads.
    private final Map<String, MemberState> lastStates = new HashMap<>();
    private long lastEpoch;
    private Optional<PublishedPlan> lastPlan = Optional.empty();
    private String lastError = "";

    private JobReader(Vertx vertx, CuratorFramework client, JobId job, Optional<JobSecret> secret, DashboardState state, ReplanGain gain,
            Optional<MemberTimingsFeed> timings, Duration interval) {
        this.vertx = vertx;
        this.gain = gain;
        this.timings = timings;
        this.client = client;
        this.job = job;
        this.state = state;
        Context context = vertx.getOrCreateContext();
        this.plans = secret.map(key -> new PlanStore(context, client, job, key));
        this.timer = vertx.setPeriodic(0, interval.toMillis(), id -> readOnce());
    }

    /**
     * Starts following {@code job} through {@code client} (a started Curator client with the job's credentials;
     * the caller keeps and closes it), and the members' collective timings into {@code timings}, if given; the plans
     * only with the job's {@code secret}, which seals them.
     */
    public static JobReader start(Vertx vertx, CuratorFramework client, JobId job, Optional<JobSecret> secret,
            DashboardState state, ReplanGain gain,
            Optional<MemberTimingsFeed> timings, Duration interval) {
        return new JobReader(vertx, client, job, secret, state, gain, timings, interval);
    }

    /** Reads once now, unless a read is under way; completes when the read is done (for tests and shutdown). */
    public Future<Void> readOnce() {
        if (closed || !reading.compareAndSet(false, true)) {
            return inFlight;
        }
        Future<Void> read = vertx.executeBlocking(() -> {
            try {
                read();
                return null;
            } finally {
                reading.set(false);
            }
        }, false);
        inFlight = read;
        return read;
    }

    private void read() {
        try {
            readMembers();
            readPlans();
            readForecasts();
            if (timings.isPresent()) {
                timings.get().read(client, state.snapshot(), state.plan());
            }
            state.sourceStatus("ok");
            lastError = "";
        } catch (Exception e) {
            if (closed) {
                return; // the session is closing under this read
            }
            String message = "ZooKeeper read of job " + job.name() + " failed: " + describe(e);
            if (!message.equals(lastError)) {
                LOG.warn("{} (keeping the last state, retrying)", message);
                lastError = message;
            }
            state.sourceStatus(message);
        }
    }

    private void readMembers() throws Exception {
        String membersPath = JobMemberZnodes.membersPath(job);
        Map<String, Member> registered = new HashMap<>();
        for (String child : childrenOrEmpty(membersPath)) {
            String path = membersPath + "/" + child;
            dataOrEmpty(path).ifPresent(data -> {
                Member member = JobMemberZnodes.decodeMember(data, path);
                registered.put(member.id().value(), member);
            });
        }
        Optional<byte[]> start = dataOrEmpty(JobMemberZnodes.startPath(job));
        List<Member> ranked;
        boolean started = start.isPresent();
        if (started) {
            ranked = new ArrayList<>(JobMemberZnodes.decodeStartRecord(start.get(), JobMemberZnodes.startPath(job)));
        } else if (state.snapshot().started()) {
            // The last member out deleted the job: keep showing its members, all gone now.
            ranked = new ArrayList<>(state.snapshot().ranked());
            started = true;
        } else {
            ranked = new ArrayList<>(registered.values());
        }
        ranked.sort(Member.RANK_ORDER);
        List<GridMember> members = new ArrayList<>();
        for (int rank = 0; rank < ranked.size(); rank++) {
            Member member = ranked.get(rank);
            MemberState now = state.failed(member.id().value()) ? MemberState.FAILED
                    : registered.containsKey(member.id().value()) ? MemberState.JOINED : MemberState.LEFT;
            members.add(new GridMember(rank, member, now));
        }
        JobSnapshot snapshot = new JobSnapshot(job.name(), started, members);
        reportChanges(snapshot);
        state.snapshot(snapshot);
    }

    private void reportChanges(JobSnapshot snapshot) {
        for (GridMember member : snapshot.members()) {
            MemberState before = lastStates.put(member.id(), member.state());
            if (before == member.state() || member.state() == MemberState.FAILED) {
                continue; // a failure's event comes from the failure detector's verdict (DashboardState.memberFailed)
            }
            JsonObject fields = new JsonObject().put("member", member.id()).put("rank", member.rank())
                    .put("site", member.site());
            if (member.state() == MemberState.JOINED) {
                state.event(GridEvent.Kind.JOIN, member.id() + " registered at " + member.site(), fields);
            } else if (before != null || snapshot.started()) {
                state.event(GridEvent.Kind.LEAVE, member.id() + " (rank " + member.rank() + ", " + member.site()
                        + ") left: its member znode is gone (a clean leave, or its session expired)", fields);
            }
        }
    }

    private void readPlans() throws Exception {
        if (plans.isEmpty()) {
            return;
        }
        readPlans(plans.get());
    }

    private void readPlans(PlanStore plans) throws Exception {
        long current = plans.currentEpoch().toCompletionStage().toCompletableFuture()
                .get(PLAN_READ_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        if (current <= lastEpoch) {
            return;
        }
        // Every epoch published since the last read is an event; older ones may have been pruned already.
        for (long epoch = Math.max(lastEpoch + 1, current - 15); epoch <= current; epoch++) {
            PublishedPlan plan;
            try {
                plan = plans.read(epoch).toCompletionStage().toCompletableFuture()
                        .get(PLAN_READ_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (epoch < current) {
                    continue; // pruned between the reads
                }
                throw e;
            }
            replanned(plan);
        }
        lastEpoch = current;
    }

    private void replanned(PublishedPlan plan) {
        JsonObject fields = new JsonObject().put("epoch", plan.epoch())
                .put("predicted_completion_ms", plan.predictedCompletionMs());
        lastPlan.ifPresent(before -> {
            fields.put("previous_epoch", before.epoch());
            OptionalDouble previousOnNew = gain.previousPlanOnNewLatenciesMs(state.snapshot(), before, plan);
            if (previousOnNew.isPresent()) {
                fields.put("previous_plan_on_new_latencies_ms", previousOnNew.getAsDouble())
                        .put("predicted_gain_ms", previousOnNew.getAsDouble() - plan.predictedCompletionMs());
            }
        });
        state.event(GridEvent.Kind.REPLAN, plan.reason(), fields);
        state.plan(plan);
        lastPlan = Optional.of(plan);
    }

    private void readForecasts() throws Exception {
        List<SitePairForecast> pairs = new ArrayList<>();
        try {
            for (SiteSummary summary : SiteSummaryPublisher.readBlocking(client, job)) {
                pairs.addAll(summary.pairs());
            }
        } catch (KeeperException.NoNodeException e) {
            return; // a representative changed between listing and reading: the next read sees the new one
        }
        state.forecasts(pairs);
    }

    private List<String> childrenOrEmpty(String path) throws Exception {
        try {
            return client.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    private Optional<byte[]> dataOrEmpty(String path) throws Exception {
        try {
            return Optional.of(client.getData().forPath(path));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        }
    }

    private static String describe(Throwable e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }

    /** Stops reading; completes when a read under way has ended (so the session can close under none). */
    public Future<Void> close() {
        closed = true;
        vertx.cancelTimer(timer);
        return inFlight.otherwiseEmpty();
    }
}
