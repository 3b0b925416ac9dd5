package dev.canopy.dashboard.model;

import dev.canopy.collectives.internal.leader.PublishedPlan;
import dev.canopy.dashboard.multicast.MulticastFigures;
import dev.canopy.probes.internal.measure.SitePairForecast;
import io.vertx.core.json.JsonObject;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the dashboard knows about one job, written by its sources (the ZooKeeper reader, the collective
 * recorder, an in-process demo) and read by the HTTP handlers. Every field is an immutable value behind a
 * volatile reference, so readers on any thread see a consistent value without locks; each write bumps the
 * version of its {@link Part}, which the event stream pushes to browsers.
 */
public final class DashboardState {

    private final String job;
    private final Map<Part, AtomicLong> versions = new EnumMap<>(Part.class);
    private final AtomicLong changes = new AtomicLong();
    private final EventLog events = new EventLog();
    private volatile JobSnapshot snapshot;
    private volatile List<SitePairForecast> forecasts = List.of();
    private volatile MeasuredRtts measured = MeasuredRtts.NONE;
    private volatile Optional<PublishedPlan> plan = Optional.empty();
    private volatile String sourceStatus = "starting";
    private volatile MulticastFigures multicast = MulticastFigures.NONE;
    /** Member id to why the failure detector judged it failed; written under {@code this}. */
    private volatile Map<String, String> failures = Map.of();
    /** Members a node heard say goodbye: they left, whatever another node's detector concluded. Under {@code this}. */
    private final Set<String> goodbyes = new HashSet<>();

    public DashboardState(String job) {
        this.job = Objects.requireNonNull(job, "job");
        this.snapshot = JobSnapshot.empty(job);
        for (Part part : Part.values()) {
            versions.put(part, new AtomicLong());
        }
    }

    public String job() {
        return job;
    }

    public JobSnapshot snapshot() {
        return snapshot;
    }

    /** The membership as last read; members the failure detector judged failed stay {@link MemberState#FAILED}. */
    public synchronized void snapshot(JobSnapshot next) {
        next = next.withFailed(failures.keySet());
        if (!next.equals(snapshot)) {
            snapshot = next;
            changed(Part.GRID);
            changed(Part.LINKS);
            changed(Part.PLAN);
        }
    }

    /** Whether a failure detector judged member {@code id} failed (and no node heard its goodbye). */
    public boolean failed(String id) {
        return failures.containsKey(id);
    }

    /**
     * A failure detector judged member {@code id} failed: it is {@link MemberState#FAILED} from now on, with a
     * {@code failure} event, unless a node hears its goodbye ({@link #memberSaidGoodbye}). The first verdict counts;
     * later ones (other members' detectors) change nothing.
     */
    public void memberFailed(String id, String reason) {
        memberFailed(id, reason, new JsonObject());
    }

    /** As above, with {@code evidence} (e.g. an exit status) as further fields of the {@code failure} event. */
    public synchronized void memberFailed(String id, String reason, JsonObject evidence) {
        if (failures.containsKey(id) || goodbyes.contains(id)) {
            return;
        }
        Map<String, String> next = new HashMap<>(failures);
        next.put(id, reason);
        failures = Map.copyOf(next);
        JsonObject fields = evidence.copy().put("member", id);
        snapshot.byId(id).ifPresent(member -> fields.put("rank", member.rank()).put("site", member.site()));
        String who = snapshot.byId(id).map(m -> id + " (rank " + m.rank() + ", " + m.site() + ")").orElse(id);
        event(GridEvent.Kind.FAILURE, who + " failed: " + reason, fields);
        snapshot(snapshot);
    }

    /**
     * A node heard member {@code id} say goodbye: it left on purpose. That outweighs a failure verdict (a node whose
     * goodbye was still on an emulated or slow link when the connection closed looks failed to that peer): the member
     * is no longer failed, and the next membership read shows it as ZooKeeper has it.
     */
    public synchronized void memberSaidGoodbye(String id) {
        goodbyes.add(id);
        if (failures.containsKey(id)) {
            Map<String, String> next = new HashMap<>(failures);
            next.remove(id);
            failures = Map.copyOf(next);
        }
    }

    public List<SitePairForecast> forecasts() {
        return forecasts;
    }

    public void forecasts(List<SitePairForecast> next) {
        if (!next.equals(forecasts)) {
            forecasts = List.copyOf(next);
            changed(Part.LINKS);
        }
    }

    public MeasuredRtts measured() {
        return measured;
    }

    public void measured(MeasuredRtts next) {
        measured = Objects.requireNonNull(next, "measured");
        changed(Part.LINKS);
    }

    /** The newest plan the leader published; empty while the job runs on the level file's plan. */
    public Optional<PublishedPlan> plan() {
        return plan;
    }

    public void plan(PublishedPlan next) {
        plan = Optional.of(next);
        changed(Part.PLAN);
    }

    /** The counters of the bcast multicast layer, {@link MulticastFigures#NONE} while nothing runs over multicast. */
    public MulticastFigures multicast() {
        return multicast;
    }

    public void multicast(MulticastFigures next) {
        multicast = Objects.requireNonNull(next, "multicast");
        changed(Part.MULTICAST);
    }

    public EventLog events() {
        return events;
    }

    public GridEvent event(GridEvent.Kind kind, String detail, JsonObject fields) {
        GridEvent event = events.add(kind, detail, fields);
        changed(Part.EVENTS);
        return event;
    }

    /** How the source is doing, e.g. {@code ok} or the last ZooKeeper error; shown on every page. */
    public String sourceStatus() {
        return sourceStatus;
    }

    public void sourceStatus(String status) {
        if (!status.equals(sourceStatus)) {
            sourceStatus = status;
            changed(Part.GRID);
        }
    }

    public void changed(Part part) {
        versions.get(part).incrementAndGet();
        changes.incrementAndGet();
    }

    /** Grows on every change of any part. */
    public long changeCount() {
        return changes.get();
    }

    /** {@code {"grid":3,"links":7,...}}: each part's version. */
    public JsonObject versions() {
        JsonObject json = new JsonObject();
        versions.forEach((part, version) -> json.put(part.jsonName(), version.get()));
        return json;
    }
}
