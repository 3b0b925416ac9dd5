package dev.canopy.probes.internal.measure;

import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.internal.membership.MembershipView;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeLogger;
import dev.canopy.core.transport.Datagram;
import dev.canopy.core.transport.Transport;
import dev.canopy.probes.internal.Link;
import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.forecast.ForecastListener;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.probes.internal.forecast.LinkForecasts;
import dev.canopy.probes.internal.forecast.Subscription;
import dev.canopy.probes.internal.schedule.ProbePlan;
import dev.canopy.probes.internal.schedule.ProbeTask;
import dev.canopy.probes.internal.schedule.ProbeTimetable;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.SocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's probing: runs its part of the {@link ProbePlan} on the transport's context, answers the probes
 * of other members, and feeds every sample into its {@link LinkForecasts}.
 *
 * <p>Only live members of the job are answered or believed ({@link MembershipGuard}); anything else is dropped
 * and counted in {@link ProbeStatistics#dropped()}. Nothing here blocks: probes are sent and timed with
 * Vert.x timers and futures. All state is owned by the transport's context; public methods may be called
 * from any thread and post to it.
 *
 * <p>The service takes over the transport's datagram and frame handlers; frames that are not probes go to the
 * handlers given to {@link #otherDatagrams} and {@link #otherFrames} (or are dropped and counted).
 */
public final class ProbeService {

    private static final Logger LOG = LoggerFactory.getLogger(ProbeService.class);

    private final Vertx vertx;
    private final Transport transport;
    private final Context context;
    private final Member self;
    private final ProbeSettings settings;
    private final NanoClock clock;
    private final long job;
    private final MembershipGuard guard;
    private final LinkForecasts forecasts;
    private final ProbeTimetable timetable;
    private final ProbeCounters counters;
    private final RoundTripProber roundTrips;
    private final BandwidthProber bandwidth;
    private final long startNanos;

    // Owned by the context.
    private MembershipView view;
    private int selfRank = Frame.UNKNOWN_RANK;
    private ProbePlan plan;
    private long round = -1;
    private long ticker = -1;
    private String nodeLabel;
    private final NodeLogger log = new NodeLogger(LOG, () -> nodeLabel);
    private Handler<Datagram> otherDatagrams;
    private Handler<Frame> otherFrames;

    public ProbeService(Vertx vertx, Transport transport, JobId job, Member self, ProbeSettings settings,
            NanoClock clock) {
        this.vertx = vertx;
        this.transport = transport;
        this.context = transport.context();
        this.self = self;
        this.settings = settings;
        this.clock = clock;
        this.job = job.frameKey();
        this.guard = new MembershipGuard(this.job);
        this.forecasts = new LinkForecasts(settings.forecast(), clock);
        this.timetable = new ProbeTimetable(self.id(), settings.schedule());
        this.startNanos = clock.nanoTime();
        this.counters = new ProbeCounters(startNanos);
        this.roundTrips = new RoundTripProber(vertx, transport, clock, settings.probeTimeout(), counters, this.job);
        this.bandwidth = new BandwidthProber(vertx, transport, clock, settings.probeTimeout(), counters, this.job,
                settings.bandwidthBytes());
        this.nodeLabel = self.coordinates().site() + "/" + self.coordinates().host();
    }

    /** Takes over the transport's handlers and starts probing the members of {@code initialView}. */
    public Future<Void> start(MembershipView initialView) {
        return onContext(() -> {
            if (ticker >= 0) {
                throw new IllegalStateException("probe service of " + self.id() + " is already running");
            }
            transport.datagramHandler(this::onDatagram);
            transport.frameHandler(this::onFrame);
            adopt(initialView);
            ticker = vertx.setPeriodic(settings.tick().toMillis(), id -> tick());
            log.info("probing {} links of {} ({} members, {} sites)", timetable.ownedLinks(),
                    plan.linksOf(self.id()).size(), view.alive().size(), plan.representatives().size());
            return null;
        });
    }

    /** A new rank table (a member left or joined): the plan, representatives and tokens follow it. */
    public void updateMembership(MembershipView newView) {
        context.runOnContext(v -> {
            if (newView.rankOf(self.id()).isEmpty()) {
                LOG.error("[{}] ignores a rank table without this node ({} members); probing goes on with the old one",
                        nodeLabel, newView.size());
                return;
            }
            adopt(newView);
        });
    }

    /** Forecast changes of this node's links; the listener runs on this service's context and must not block. */
    public Subscription subscribe(ForecastListener listener) {
        return forecasts.subscribe(listener);
    }

    /** Every link this node has measured, fresh or stale. */
    public Future<List<LinkForecast>> forecasts() {
        return onContext(forecasts::all);
    }

    public Future<Optional<LinkForecast>> forecast(Link link, Metric metric) {
        return onContext(() -> forecasts.forecast(link, metric));
    }

    public Future<ProbeStatistics> statistics() {
        return onContext(() -> counters.snapshot(clock.nanoTime()));
    }

    /** The plan this node currently follows. */
    public Future<ProbePlan> plan() {
        return onContext(() -> plan);
    }

    public Member self() {
        return self;
    }

    /** The context that owns this service: listeners run on it. */
    public Context context() {
        return context;
    }

    /** Where datagrams that are not probes go (another module of the node). */
    public void otherDatagrams(Handler<Datagram> handler) {
        context.runOnContext(v -> otherDatagrams = handler);
    }

    /** Where reliable frames that are not probes go (another module of the node). */
    public void otherFrames(Handler<Frame> handler) {
        context.runOnContext(v -> otherFrames = handler);
    }

    /** Stops probing; probes in flight complete as lost. The transport stays open. */
    public Future<Void> stop() {
        return onContext(() -> {
            if (ticker >= 0) {
                vertx.cancelTimer(ticker);
                ticker = -1;
            }
            roundTrips.stop();
            bandwidth.stop();
            return null;
        });
    }

    private void adopt(MembershipView newView) {
        view = newView;
        selfRank = newView.rankOf(self.id()).orElseThrow(() -> new IllegalArgumentException(
                "node " + self.id() + " is not in the rank table it was given; start probing after joining"));
        nodeLabel = NodeLogger.label(self.coordinates(), OptionalInt.of(selfRank));
        round = currentRound();
        replan();
    }

    private long currentRound() {
        long rotationNanos = settings.schedule().latencyPeriod().toNanos()
                * settings.schedule().crossCheckRotationPeriods();
        return (clock.nanoTime() - startNanos) / rotationNanos;
    }

    private void replan() {
        plan = ProbePlan.of(view.alive(), settings.schedule(), round);
        timetable.update(plan, clock.nanoTime());
    }

    private void tick() {
        long rotation = currentRound();
        if (rotation != round) {
            round = rotation;
            replan();
        }
        for (ProbeTask task : timetable.due(clock.nanoTime())) {
            launch(task);
        }
        forecasts.expireStale();
    }

    private void launch(ProbeTask task) {
        Member peer = task.link().peer();
        int peerRank = view.rankOf(peer.id()).orElseThrow(() -> new IllegalStateException(
                "planned peer " + peer.id() + " of " + self.id() + " has no rank in the view the plan came from"));
        Link link = task.link().link();
        Future<ProbeOutcome> outcome = switch (task.metric()) {
            case ROUND_TRIP_TIME -> roundTrips.probe(peer, selfRank, peerRank);
            case BANDWIDTH -> bandwidth.probe(peer, selfRank, peerRank, forecasts
                    .forecast(link, Metric.ROUND_TRIP_TIME).map(f -> f.forecast().value()).orElse(0.0));
        };
        outcome.onComplete(done -> {
            timetable.completed(link);
            if (done.result() instanceof ProbeOutcome.Measured measured) {
                counters.measured();
                forecasts.record(link, task.metric(), measured.value(), task.period());
            } else {
                counters.lost();
                forecasts.recordLoss(link, task.metric());
                if (done.result() instanceof ProbeOutcome.Lost lost) {
                    log.debug("{} probe to {} lost: {}", task.metric(), peer.id(), lost.reason());
                }
            }
        });
    }

    private void onDatagram(Datagram datagram) {
        Frame frame = datagram.frame();
        if (!ProbeFrames.isProbe(frame.type())) {
            passOn(otherDatagrams, datagram);
            return;
        }
        counters.received();
        admitted(frame, Optional.of(datagram.sender())).ifPresent(source -> {
            if (!ProbeFrames.hasRequestLayout(frame)) {
                drop(frame, DropReason.MALFORMED);
            } else if (frame.type() == FrameType.PROBE_REQUEST) {
                counters.answered();
                transport.sendDatagram(source, ProbeFrames.reply(frame));
            } else if (frame.type() == FrameType.PROBE_REPLY) {
                roundTrips.onReply(frame, source);
            } else {
                drop(frame, DropReason.MALFORMED); // bandwidth probes travel over TCP only
            }
        });
    }

    private void onFrame(Frame frame) {
        if (frame.type() != FrameType.BANDWIDTH_PROBE) {
            passOn(otherFrames, frame);
            return;
        }
        counters.received();
        admitted(frame, Optional.empty()).ifPresent(source -> {
            if (frame.tag() == ProbeFrames.TRANSFER) {
                counters.answered();
                transport.send(source, ProbeFrames.receipt(frame));
            } else if (frame.tag() == ProbeFrames.RECEIPT) {
                bandwidth.onReceipt(frame, source);
            } else {
                drop(frame, DropReason.MALFORMED);
            }
        });
    }

    private Optional<Member> admitted(Frame frame, Optional<SocketAddress> sender) {
        if (view == null) {
            drop(frame, DropReason.NO_MEMBERSHIP_YET);
            return Optional.empty();
        }
        MembershipGuard.Verdict verdict = guard.check(frame, sender, view, selfRank);
        if (verdict instanceof MembershipGuard.Refused refused) {
            drop(frame, refused.reason());
            return Optional.empty();
        }
        return Optional.of(((MembershipGuard.Admitted) verdict).source());
    }

    private <T> void passOn(Handler<T> handler, T message) {
        if (handler != null) {
            handler.handle(message);
        } else {
            counters.dropped(DropReason.NOT_A_PROBE);
        }
    }

    private void drop(Frame frame, DropReason reason) {
        counters.dropped(reason);
        log.debug("dropped {}: {}", frame, reason);
    }

    private <T> Future<T> onContext(Callable<T> action) {
        Promise<T> result = Promise.promise();
        context.runOnContext(v -> {
            try {
                result.complete(action.call());
            } catch (Exception e) {
                result.fail(e);
            }
        });
        return result.future();
    }
}
