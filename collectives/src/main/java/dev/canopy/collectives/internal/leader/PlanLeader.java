package dev.canopy.collectives.internal.leader;

import dev.canopy.collectives.plan.SitePairBandwidths;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeLogger;
import dev.canopy.core.security.JobSecret;
import dev.canopy.probes.internal.forecast.Subscription;
import dev.canopy.topology.internal.replan.ReplanDecision;
import dev.canopy.topology.internal.replan.ReplanState;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.slf4j.LoggerFactory;

/**
 * One node's part in plan leadership. Every node runs one; a Curator {@link LeaderLatch} on
 * {@code /canopy/jobs/<job>/plans/leader} elects the leader. The leader evaluates on a forecast change of its
 * node and every {@link LeaderSettings#evaluationInterval()}, but at most once per interval: a change during
 * that cool-down is evaluated when it ends. So the consecutive evaluations the policy's hysteresis counts are
 * at least an interval apart, and a burst of forecast changes (a cold start, a noisy second) cannot confirm a
 * re-plan within milliseconds. The cool-down is measured on the injected {@link NanoClock} (timers only wake
 * the leader up to look at it), so a test that holds the clock still sees exactly one evaluation. An
 * evaluation snapshots the forecasts ({@link ForecastLatencies}), predicts the current plan's completion on
 * them against a new plan's ({@link PlanEvaluator}), asks the {@link dev.canopy.topology.internal.replan.ReplanPolicy}
 * whether the difference is worth a new plan, and if so publishes it under the next epoch ({@link PlanStore}),
 * logging why and which links moved.
 *
 * <p>A new leader continues from the highest published epoch: it adopts that plan as its baseline and
 * publishes only when the policy says so (or the first plan when there is none). Publication is fenced by
 * the leader's latch znode, and epochs are created, never overwritten, so a deposed leader cannot publish
 * and no epoch is used twice.
 *
 * <p>Connection states: SUSPENDED pauses publishing (the session may still be alive, but this node cannot
 * know whether it is still leader); RECONNECTED resumes if the latch still holds leadership, re-reading the
 * highest epoch first; LOST ends leadership at once. Lifecycle LATENT, STARTED, CLOSED by compare-and-set;
 * everything else is owned by {@code context}.
 */
public final class PlanLeader {

    /** This node's part, as of the last event handled on the context. */
    public enum Role {
        FOLLOWING,
        /** Elected; reading the highest published epoch before deciding anything. */
        TAKING_OVER,
        LEADING,
        /** Elected, but the ZooKeeper connection is suspended: publishes nothing until it is back. */
        SUSPENDED
    }

    /** Links whose latency moved by more than this fraction are named in the re-plan log line. */
    private static final double MOVED_LINK_FRACTION = 0.05;
    private static final int MOVED_LINKS_LOGGED = 5;

    private final AtomicReference<Lifecycle> state = new AtomicReference<>(Lifecycle.LATENT);
    private final Context context;
    private final CuratorFramework client;
    private final Member self;
    private final ForecastFeed forecasts;
    private final ForecastLatencies latencies;
    private final PlanEvaluator evaluator;
    private final LeaderSettings settings;
    private final NanoClock clock;
    private final PlanStore store;
    private final LeaderLatch latch;
    private final ConnectionStateListener connectionListener;
    private final NodeLogger log;

    // Owned by the context.
    private final List<Handler<ReplanDecision>> decisionListeners = new ArrayList<>();
    private long term;
    private Subscription subscription;
    private long evaluationTimer = -1;
    private PublishedPlan baseline;
    private long highestEpoch;
    private ReplanState streak = ReplanState.INITIAL;
    private boolean evaluationQueued;
    /** When the last evaluation started on {@link #clock}; an interval after it, the cool-down ends. */
    private long lastEvaluationNanos;
    private boolean evaluatedOnce;
    /** A change or tick arrived while cooling down; it is evaluated when the cool-down ends. */
    private boolean evaluationDeferred;
    private long wakeUpTimer = -1;
    /** An evaluation (prediction, decision, publication) is under way; another waits for it. */
    private boolean busy;
    private boolean evaluateAgain;
    // Written on the context only; readable from any thread.
    private volatile Role role = Role.FOLLOWING;

    /**
     * @param context the context this leader's state lives on (e.g. the node's)
     * @param forecasts this node's forecasts, e.g. {@code ForecastFeed.of(probeService)}
     * @param client a started Curator client (any namespace; this class uses {@code canopy/jobs/<job>})
     * @param secret the job's secret, which seals the plans ({@link PlanStore})
     * @param clock measures the cool-down between evaluations ({@link NanoClock#SYSTEM} outside tests)
     */
    public PlanLeader(Context context, CuratorFramework client, JobId job, JobSecret secret, Member self,
            ForecastFeed forecasts,
            ForecastLatencies latencies, PlanEvaluator evaluator, LeaderSettings settings, NanoClock clock) {
        this.context = context;
        this.client = PlanStore.namespaced(client, job);
        this.self = self;
        this.forecasts = forecasts;
        this.latencies = latencies;
        this.evaluator = evaluator;
        this.settings = settings;
        this.clock = clock;
        this.store = new PlanStore(context, client, job, secret);
        this.latch = new LeaderLatch(this.client, PlanStore.LEADER_LATCH, self.id().value());
        this.connectionListener = (ignored, newState) -> context.runOnContext(v -> connectionChanged(newState));
        int rank = evaluator.members().indexOf(self.id().value());
        this.log = new NodeLogger(LoggerFactory.getLogger(PlanLeader.class),
                () -> NodeLogger.label(self.coordinates(), rank < 0 ? OptionalInt.empty() : OptionalInt.of(rank)));
    }

    public Lifecycle state() {
        return state.get();
    }

    public Role role() {
        return role;
    }

    /** Called on the context with every re-plan decision this node takes while leader (KEEP and REPLAN). */
    public void onDecision(Handler<ReplanDecision> listener) {
        context.runOnContext(v -> decisionListeners.add(listener));
    }

    /** Creates the plan znodes if needed and joins the election; completes once this node is a candidate. */
    public Future<Void> start() {
        if (!state.compareAndSet(Lifecycle.LATENT, Lifecycle.STARTED)) {
            return Future.failedFuture(new IllegalStateException("plan leader of " + self.id() + " is already "
                    + state.get() + "; create a new one"));
        }
        Executor onContext = command -> context.runOnContext(v -> command.run());
        latch.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                takeOver("elected plan leader");
            }

            @Override
            public void notLeader() {
                stepDown("no longer plan leader");
            }
        }, onContext);
        client.getConnectionStateListenable().addListener(connectionListener);
        // LeaderLatch.start is not one of Curator's asynchronous calls, so it stays off the event loop.
        return store.ensureCreated().compose(v -> context.executeBlocking(() -> {
            latch.start();
            return null;
        }));
    }

    /** Leaves the election (the next node takes over) and stops listening; safe to call twice. */
    public Future<Void> close() {
        Lifecycle previous = state.getAndSet(Lifecycle.CLOSED);
        if (previous != Lifecycle.STARTED) {
            return Future.succeededFuture();
        }
        return Future.<Void>future(promise -> context.runOnContext(v -> {
            stepDown("closing");
            client.getConnectionStateListenable().removeListener(connectionListener);
            decisionListeners.clear();
            promise.complete();
        })).compose(v -> context.executeBlocking(() -> {
            latch.close();
            return null;
        }));
    }

    private void connectionChanged(ConnectionState newState) {
        switch (newState) {
            case SUSPENDED -> {
                if (role == Role.LEADING || role == Role.TAKING_OVER) {
                    term++;
                    role = Role.SUSPENDED;
                    log.warn("plan leader lost its ZooKeeper connection; publishes nothing until it is back");
                }
            }
            case RECONNECTED -> {
                if (role == Role.SUSPENDED && latch.hasLeadership()) {
                    takeOver("reconnected to ZooKeeper and still plan leader");
                } else {
                    log.info("reconnected to ZooKeeper; the plan election continues");
                }
            }
            case LOST -> stepDown("ZooKeeper session lost; the next leader continues from the highest published epoch");
            case CONNECTED, READ_ONLY -> log.debug("ZooKeeper connection {}", newState);
        }
    }

    /** On the context: start leading from the highest published epoch. */
    private void takeOver(String why) {
        if (state.get() != Lifecycle.STARTED) {
            return;
        }
        long myTerm = ++term;
        role = Role.TAKING_OVER;
        log.info("{}; reading the highest published plan epoch", why);
        store.currentEpoch()
                .compose(this::highestPublished)
                .onComplete(result -> {
                    if (term != myTerm) {
                        return;
                    }
                    if (result.failed()) {
                        log.error("plan leader cannot read the published plans; stepping down: {}", result.cause().toString());
                        stepDown("cannot read the published plans");
                        return;
                    }
                    baseline = result.result().plan();
                    highestEpoch = result.result().epoch();
                    streak = ReplanState.INITIAL;
                    role = Role.LEADING;
                    if (subscription == null) {
                        subscription = forecasts.subscribe(change -> context.runOnContext(v -> queueEvaluation()));
                        evaluationTimer = context.owner().setPeriodic(settings.evaluationInterval().toMillis(),
                                timer -> queueEvaluation());
                    }
                    log.info("leads plans from epoch {}", highestEpoch);
                    queueEvaluation();
                });
    }

    /** The highest published epoch and its plan: null before the first, or when it is not trusted. */
    private record Published(long epoch, PublishedPlan plan) {
    }

    /**
     * The plan of the highest published epoch. One this job's secret did not seal is no baseline: the leader plans
     * afresh and publishes the next epoch over it, so members move on from a forgery at their next switch point.
     */
    private Future<Published> highestPublished(long epoch) {
        if (epoch == 0) {
            return Future.succeededFuture(new Published(0, null));
        }
        return store.read(epoch).map(plan -> new Published(epoch, plan)).recover(e -> {
            if (e instanceof UntrustedPlanException) {
                log.warn("ignores the highest published plan and publishes epoch {} over it: {}", epoch + 1, e.getMessage());
                return Future.succeededFuture(new Published(epoch, null));
            }
            return Future.failedFuture(e);
        });
    }

    /** On the context: stop publishing. */
    private void stepDown(String why) {
        term++;
        if (subscription != null) {
            subscription.close();
            subscription = null;
            context.owner().cancelTimer(evaluationTimer);
        }
        if (wakeUpTimer >= 0) {
            context.owner().cancelTimer(wakeUpTimer);
            wakeUpTimer = -1;
            evaluationDeferred = false;
        }
        if (role != Role.FOLLOWING) {
            log.info("stops publishing plans: {}", why);
        }
        role = Role.FOLLOWING;
        baseline = null;
    }

    /** Forecast changes arrive in bursts; one evaluation covers all that are queued, at most one per interval. */
    private void queueEvaluation() {
        if (coolingDown()) {
            evaluationDeferred = true;
            wakeUpAfterCoolDown();
            return;
        }
        if (!evaluationQueued) {
            evaluationQueued = true;
            context.runOnContext(v -> {
                evaluationQueued = false;
                evaluate();
            });
        }
    }

    /**
     * What an evaluation compares, computed off the event loop: the fresh snapshot and, per message size, two
     * predictions; the size where the new trees gain most decides.
     */
    private record Evaluation(LatencySnapshot fresh, SitePairBandwidths freshBandwidths,
            List<PlanEvaluator.SizedPrediction> predictions) {

        PlanEvaluator.SizedPrediction deciding() {
            return predictions.stream()
                    .max(Comparator.comparingDouble(PlanEvaluator.SizedPrediction::relativeGain))
                    .orElseThrow();
        }

        /**
         * The new plan's completion at the first size judged (0 bytes with the default sizes): what the first plan is
         * judged by and what a published plan states, so its predicted completion keeps meaning the trees the
         * runtime's default collectives use, whichever size decided.
         */
        double headlineMs() {
            return predictions.get(0).candidateMs();
        }
    }

    /**
     * Reads the forecasts from the feed, snapshots and predicts on a worker thread (planning every reference
     * root can take longer than an event loop may be held), decides back on the context.
     */
    private void evaluate() {
        if (role != Role.LEADING) {
            return;
        }
        if (busy) {
            evaluateAgain = true;
            return;
        }
        busy = true;
        startCoolDown();
        long myTerm = term;
        PublishedPlan current = baseline;
        Future.fromCompletionStage(forecasts.all().toCompletionStage(), context)
                .compose(all -> context.executeBlocking(() -> {
                    LatencySnapshot fresh = latencies.snapshot(evaluator.members(), all);
                    SitePairBandwidths freshBandwidths = evaluator.bandwidths(all);
                    return new Evaluation(fresh, freshBandwidths, evaluator.predict(current, fresh, freshBandwidths));
                }))
                .compose(evaluation -> term == myTerm ? decide(current, evaluation) : Future.succeededFuture())
                .onComplete(done -> {
                    busy = false;
                    if (done.failed()) {
                        log.error("plan evaluation failed; retrying on the next forecast change or interval: {}",
                                done.cause().toString());
                    }
                    if (evaluateAgain) {
                        evaluateAgain = false;
                        queueEvaluation();
                    }
                });
    }

    private void startCoolDown() {
        evaluatedOnce = true;
        lastEvaluationNanos = clock.nanoTime();
    }

    private boolean coolingDown() {
        return evaluatedOnce && clock.nanoTime() - lastEvaluationNanos < settings.evaluationInterval().toNanos();
    }

    /** Looks at the clock again when the cool-down should be over; a deferred evaluation runs if it is. */
    private void wakeUpAfterCoolDown() {
        if (wakeUpTimer >= 0) {
            return;
        }
        long remainingNanos = settings.evaluationInterval().toNanos() - (clock.nanoTime() - lastEvaluationNanos);
        long delayMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(remainingNanos));
        wakeUpTimer = context.owner().setTimer(delayMs, timer -> context.runOnContext(v -> {
            wakeUpTimer = -1;
            if (evaluationDeferred) {
                evaluationDeferred = false;
                queueEvaluation();
            }
        }));
    }

    private Future<Void> decide(PublishedPlan current, Evaluation evaluation) {
        LatencySnapshot fresh = evaluation.fresh();
        if (current == null) {
            double firstMs = evaluation.headlineMs();
            if (Double.isInfinite(firstMs)) {
                log.warn("cannot publish a first plan: the forecasts and configured latencies do not reach every member");
                return Future.succeededFuture();
            }
            return publish(new PublishedPlan(highestEpoch + 1, fresh, evaluation.freshBandwidths(),
                    PlanEvaluator.distinctClasses(evaluation.predictions()), firstMs,
                    String.format("first plan of the job: predicts %.3f ms", firstMs)));
        }
        PlanEvaluator.SizedPrediction deciding = evaluation.deciding();
        ReplanDecision decision = settings.policy().decide(streak, deciding.currentMs(), deciding.candidateMs());
        streak = decision.next();
        for (Handler<ReplanDecision> listener : List.copyOf(decisionListeners)) {
            listener.handle(decision);
        }
        String sized = evaluator.weighsBandwidth() ? " for " + deciding.messageBytes() + "-byte messages" : "";
        if (!decision.replan()) {
            log.debug("epoch {}: {}{}", current.epoch(), decision.reason(), sized);
            return Future.succeededFuture();
        }
        String bandwidthMoves = evaluator.weighsBandwidth()
                ? "; bandwidths moved since epoch " + current.epoch() + ": " + movedLinks(
                        evaluation.freshBandwidths().movesSince(current.bandwidths(), MOVED_LINK_FRACTION))
                : "";
        return publish(new PublishedPlan(highestEpoch + 1, fresh, evaluation.freshBandwidths(),
                PlanEvaluator.distinctClasses(evaluation.predictions()), evaluation.headlineMs(),
                decision.reason() + sized + "; links moved since epoch " + current.epoch() + ": "
                        + movedLinks(fresh.movesSince(current.latencies(), MOVED_LINK_FRACTION)) + bandwidthMoves));
    }

    private static String movedLinks(List<?> moves) {
        if (moves.isEmpty()) {
            return "none by more than " + Math.round(100 * MOVED_LINK_FRACTION) + " %";
        }
        String named = moves.subList(0, Math.min(MOVED_LINKS_LOGGED, moves.size())).toString();
        return moves.size() > MOVED_LINKS_LOGGED ? named + " and " + (moves.size() - MOVED_LINKS_LOGGED) + " more" : named;
    }

    private Future<Void> publish(PublishedPlan plan) {
        long myTerm = term;
        String fence = latch.getOurPath();
        Future<PlanStore.PublishOutcome> outcome = fence == null
                ? Future.succeededFuture(PlanStore.PublishOutcome.NOT_LEADER)
                : store.publish(plan, fence);
        return outcome.<Void>map(result -> {
            if (result == PlanStore.PublishOutcome.PUBLISHED) {
                // Logged even when leadership changed meanwhile: the plan is out, and the log says why.
                log.info("published plan epoch {}: {}", plan.epoch(), plan.reason());
            }
            if (term != myTerm) {
                return null;
            }
            switch (result) {
                case PUBLISHED -> {
                    baseline = plan;
                    highestEpoch = plan.epoch();
                    store.pruneBefore(plan.epoch() - PlanStore.RETAINED_EPOCHS + 1).onFailure(e -> log.debug(
                            "could not prune plan epochs before {}: {}", plan.epoch() - PlanStore.RETAINED_EPOCHS + 1,
                            e.toString()));
                }
                case EPOCH_TAKEN -> takeOver("plan epoch " + plan.epoch() + " was published by another leader");
                case NOT_LEADER -> stepDown("its latch znode is gone, so it is no longer leader");
            }
            return null;
        });
    }
}
