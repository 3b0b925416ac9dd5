package dev.canopy.dashboard.record;

import dev.canopy.collectives.internal.leader.PublishedPlan;
import dev.canopy.collectives.internal.timing.OperationTiming;
import dev.canopy.collectives.internal.timing.TimingsZnode;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.core.internal.membership.JobZnodes;
import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.dashboard.model.GridMember;
import dev.canopy.dashboard.model.JobSnapshot;
import dev.canopy.dashboard.model.MemberState;
import dev.canopy.dashboard.plan.PlanView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collectives of a job whose ranks run in other processes ({@code canopy launch}, {@code canopy node}): each
 * member publishes its recent operations' timings ({@link TimingsZnode}, sealed under the job secret) while a
 * dashboard watches; this feed announces the dashboard ({@link TimingsZnode#dashboardsPath}, an ephemeral znode of
 * its session), reads every member's timings and hands each rank's start and completion, once, to the
 * {@link CollectiveRecorder}, which matches them by sequence number into operations with skew reports.
 *
 * <p>Each rank's times are its own wall clock, so the skew report is as good as the hosts' clock agreement: exact
 * for ranks on one machine, within the NTP offset (typically well under a millisecond in a data centre, a few
 * between sites) otherwise. Only WORLD's operations are shown (the dashboard knows WORLD's members and plan).
 * Called by the {@code JobReader}, one read at a time, on a worker thread.
 */
public final class MemberTimingsFeed {

    private static final Logger LOG = LoggerFactory.getLogger(MemberTimingsFeed.class);
    private static final int WORLD = 1;

    private final CollectiveRecorder recorder;
    private final TimingsZnode znode;
    private final PlanView plans;
    private final JobId job;
    // What was handed to the recorder, per member: the sequence numbers started, and those completed.
    private final Map<String, Set<Long>> started = new HashMap<>();
    private final Map<String, Set<Long>> completed = new HashMap<>();
    private final Map<String, String> lastProblem = new HashMap<>();
    private Optional<String> announced = Optional.empty();

    public MemberTimingsFeed(CollectiveRecorder recorder, TimingsZnode znode, PlanView plans, JobId job) {
        this.recorder = recorder;
        this.znode = znode;
        this.plans = plans;
        this.job = job;
    }

    public CollectiveRecorder recorder() {
        return recorder;
    }

    /** Announces this dashboard (once the job exists) and feeds what the members published since the last read. */
    public void read(CuratorFramework client, JobSnapshot snapshot, Optional<PublishedPlan> published) throws Exception {
        if (!snapshot.started()) {
            return; // ranks are final only with the start record; nobody has run a collective yet
        }
        if (snapshot.count(MemberState.JOINED) > 0) {
            announce(client); // not once every member has gone: the last one is deleting the job's znodes
        }
        List<String> members;
        try {
            members = client.getChildren().forPath(TimingsZnode.timingsPath(job));
        } catch (KeeperException.NoNodeException e) {
            return;
        }
        Map<Long, List<Arrival>> fresh = new HashMap<>();
        for (String member : members) {
            Optional<GridMember> known = snapshot.byId(member);
            if (known.isEmpty()) {
                problem(member, "a timings znode for " + member + ", which is not a member of the job: ignored");
                continue;
            }
            readMember(client, known.get(), fresh);
        }
        if (!fresh.isEmpty()) {
            feed(fresh, snapshot, plans.plan(snapshot, published));
        }
    }

    /** One rank's operation not yet handed to the recorder. */
    private record Arrival(int rank, OperationTiming timing, boolean start) {
    }

    private void readMember(CuratorFramework client, GridMember member, Map<Long, List<Arrival>> fresh) throws Exception {
        String path = TimingsZnode.memberPath(job, member.id());
        byte[] data;
        try {
            data = client.getData().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return;
        }
        Optional<TimingsZnode.MemberTimings> timings;
        try {
            timings = znode.decode(job, member.id(), data);
        } catch (MalformedZnodeException e) {
            problem(member.id(), "ignoring " + e.getMessage());
            return;
        }
        if (timings.isEmpty()) {
            problem(member.id(), "ignoring " + path + ": its MAC is wrong (not written with this job's secret for this"
                    + " member)");
            return;
        }
        if (timings.get().rank() != member.rank()) {
            problem(member.id(), "ignoring " + path + ": it says rank " + timings.get().rank() + ", the start record "
                    + member.rank());
            return;
        }
        lastProblem.remove(member.id());
        Set<Long> wasStarted = started.computeIfAbsent(member.id(), k -> new HashSet<>());
        Set<Long> wasCompleted = completed.computeIfAbsent(member.id(), k -> new HashSet<>());
        Set<Long> present = new HashSet<>();
        for (OperationTiming timing : timings.get().operations()) {
            if (timing.contextId() != WORLD) {
                continue;
            }
            present.add(timing.sequence());
            if (wasStarted.add(timing.sequence())) {
                fresh.computeIfAbsent(timing.sequence(), k -> new ArrayList<>()).add(new Arrival(member.rank(), timing, true));
            }
            if (timing.completionMicros().isPresent() && wasCompleted.add(timing.sequence())) {
                fresh.computeIfAbsent(timing.sequence(), k -> new ArrayList<>()).add(new Arrival(member.rank(), timing, false));
            }
        }
        // A member keeps its last few operations: forget those it dropped (they will not come back).
        wasStarted.retainAll(present);
        wasCompleted.retainAll(present);
    }

    /**
     * Starts before completions, operations in sequence order; each operation described once per read (its tree and
     * predictions), from the root's report when this read has it (only the root knows a bcast's payload).
     */
    private void feed(Map<Long, List<Arrival>> fresh, JobSnapshot snapshot, CollectivePlan plan) {
        List<Member> members = snapshot.ranked();
        fresh.keySet().stream().sorted().forEach(sequence -> {
            List<Arrival> arrivals = fresh.get(sequence);
            OperationTiming model = arrivals.stream().filter(a -> a.rank() == a.timing().root()).findFirst()
                    .orElse(arrivals.get(0)).timing();
            if (model.root() >= members.size()) {
                return; // the decoder bounds it by int only; the job's size bounds it here
            }
            OperationStart start = OperationStart.describe(WORLD, sequence, model.operation(), model.root(), model.bytes(),
                    model.epoch(), plan, members);
            arrivals.stream().filter(Arrival::start).forEach(arrival -> recorder.started(start, arrival.rank(),
                    arrival.timing().arrivalMicros() * 1_000));
            arrivals.stream().filter(arrival -> !arrival.start()).forEach(arrival -> recorder.completed(WORLD, sequence,
                    arrival.rank(), arrival.timing().completionMicros().orElseThrow() * 1_000,
                    arrival.timing().failure().orElse(null)));
        });
    }

    /** An ephemeral child of the job's dashboards znode, (re)created when missing (a new session, say). */
    private void announce(CuratorFramework client) throws Exception {
        if (announced.isPresent() && client.checkExists().forPath(announced.get()) != null) {
            return;
        }
        String dashboards = TimingsZnode.dashboardsPath(job);
        try {
            // Not creatingParents: the job's root must be the members' (a dashboard never creates a job).
            client.create().withMode(CreateMode.CONTAINER).forPath(dashboards);
        } catch (KeeperException.NodeExistsException alreadyThere) {
            // Another dashboard, or this one before a new session.
        } catch (KeeperException.NoNodeException jobGone) {
            return; // the job ended (its last member deleted its znodes)
        }
        announced = Optional.of(client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(dashboards + "/dashboard-"));
        LOG.debug("watching the collectives of job {} ({})", job.name(), JobZnodes.root(job));
    }

    /** Logs a member's problem once until it changes (a read every 500 ms must not log every time). */
    private void problem(String member, String message) {
        if (!message.equals(lastProblem.put(member, message))) {
            LOG.warn("job {}: {}", job.name(), message);
        }
    }
}
