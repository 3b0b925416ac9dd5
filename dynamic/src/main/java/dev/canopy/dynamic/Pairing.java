package dev.canopy.dynamic;

import dev.canopy.collectives.Collectives;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.membership.MemberCodec;
import dev.canopy.core.internal.membership.ZnodeJson;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes an inter-communicator, collectively over one group (the accepting or the connecting one), as in the
 * seed: the roots agree a key of this pairing alone through the port ({@link NameService#answer} /
 * {@link NameService#offer}: fresh X25519 keys in ZooKeeper znodes only holders of the secret can read or write,
 * sealed with it) and each shares it in its group; every member binds its inter-communicator transport, keyed by
 * it, and the root gathers their addresses; the roots exchange group id, size, context id and addresses
 * ({@link NameService#exchange}, sealed with the pairing key); each root broadcasts both records in its group; every member then starts the
 * communicator over both groups, and {@link LeaderSetup} measures where collectives cross. A failure anywhere
 * (at the root, or one member's bind) reaches every member of the group through the same collectives.
 */
final class Pairing {

    private static final String PAIRING_LABEL = "canopy/pairing/v1 ";
    /** At debug: one line per pairing and member, where its time went ({@link StepLog}). */
    private static final Logger LOG = LoggerFactory.getLogger(Pairing.class);

    private final Vertx vertx;
    private final DynamicOptions options;
    private final Collectives local;
    private final GridModel grid;
    private final Supplier<Future<NameService>> names;

    Pairing(Vertx vertx, DynamicOptions options, Collectives local, GridModel grid, Supplier<Future<NameService>> names) {
        this.vertx = vertx;
        this.options = options;
        this.local = local;
        this.grid = grid;
        this.names = names;
    }

    /** {@code port} is read at {@code root} only. */
    Future<InterCommunicator> run(Side side, PortName port, int root) {
        Future<PortName> given = port == null
                ? Future.failedFuture(new IllegalArgumentException(verb(side) + ": the root was given no port"))
                : Future.succeededFuture(port);
        return run(side, root, given, Future.succeededFuture(), options.timeout(), new StepLog(), verb(side));
    }

    /**
     * {@link #run(Side, PortName, int)} for a root that may not have its port yet and may have to give up: at
     * {@code root}, the roots meet once {@code port} is there, waiting up to {@code patience} for the other root; when
     * {@code abort} fails first, every member of the group fails with its reason ({@code what} failed at the group's
     * leader: ...). Both futures are read at the root only. The pairing's steps are marked in {@code steps}.
     */
    Future<InterCommunicator> run(Side side, int root, Future<PortName> port, Future<?> abort, Duration patience,
            StepLog steps, String what) {
        Communicator group = local.communicator();
        if (root < 0 || root >= group.size()) {
            return Future.failedFuture(new IllegalArgumentException(what + ": root " + root
                    + " is not a rank of the group (0.." + (group.size() - 1) + ")"));
        }
        boolean isRoot = group.rank() == root;
        // The roots agree a key of this pairing alone (the port's key and a fresh X25519 exchange through the port's
        // znodes) and each shares it in its group over the group's own authenticated transport: the credential of
        // this inter-communicator, which no other pairing through the port, nor a replay of this one, has.
        Future<Meeting> meeting = !isRoot ? Future.succeededFuture() : port.compose(given -> names.get()
                .compose(service -> service.portKey(given).compose(portKey -> meet(service, side, given, portKey, patience))));
        Promise<Meeting> met = Promise.promise();
        meeting.onComplete(met);
        if (isRoot) {
            abort.onFailure(met::tryFail);
            met.future().onSuccess(agreed -> steps.mark(StepLog.KEY_AGREED));
        }
        Future<Buffer> announced = !isRoot ? Future.succeededFuture(null) : Outcome.of(met.future().map(agreed ->
                new JsonObject().put("key", HexFormat.of().formatHex(agreed.key())).toBuffer()));
        Future<InterCommunicator> made = announced.compose(outcome -> local.bcast(outcome, root))
                .compose(outcome -> {
                    steps.mark(StepLog.KEY_SHARED);
                    ZnodeJson shared = ZnodeJson.parse(Outcome.open(outcome, what).getBytes(), what + " key");
                    byte[] key = HexFormat.of().parseHex(shared.text("key", 2 * JobSecret.BYTES));
                    return Bridge.bind(vertx, options, JobSecret.of(key), JobId.of(EphemeralKey.jobName("ic-", key)),
                                    label(side, group.rank()))
                            .transform(bound -> exchange(side, root, bound, met.future(), steps).onFailure(e -> {
                                if (bound.succeeded()) {
                                    bound.result().close("making the inter-communicator failed");
                                }
                            }));
                })
                .onSuccess(done -> LOG.debug("{} at rank {} of {}: {}", verb(side), group.rank(), group.member(0).id(), steps))
                // A meeting that completes after the group gave up (abort) is withdrawn as well.
                .onFailure(e -> meeting.onSuccess(agreed -> {
                    if (agreed != null) {
                        names.get().onSuccess(service -> service.withdraw(agreed.rendezvous()));
                    }
                }));
        // A spawn's root has no port yet here; the others never know it.
        return Deadline.bound(vertx, made, patience.plus(options.timeout()), what
                + (port.succeeded() && port.result() != null ? " on port " + port.result() : ""));
    }

    /**
     * From the gather on. A member whose transport did not bind still takes part, with its reason instead of its
     * address, so the root fails the whole group with it rather than leaving the others waiting.
     */
    private Future<InterCommunicator> exchange(Side side, int root, AsyncResult<Bridge> bound, Future<Meeting> met,
            StepLog steps) {
        Communicator group = local.communicator();
        int rank = group.rank();
        steps.mark("bound");
        Buffer mine = bound.failed() ? Outcome.failed(new IllegalStateException("rank " + rank + " could not start its"
                + " inter-communicator transport: " + bound.cause().getMessage(), bound.cause()))
                : Outcome.ok(Buffer.buffer(MemberCodec.toJson(new Member(NodeId.of(side.memberId(rank)),
                        group.member(rank).coordinates(), bound.result().address())).encode()));
        return local.gatherv(mine, root)
                .compose(gathered -> rank != root ? Future.succeededFuture((Buffer) null)
                        : Outcome.of(Future.succeededFuture(gathered.orElseThrow()).map(this::record)
                                .onSuccess(record -> steps.mark("gathered"))
                                .compose(record -> pairAtRoot(side, met.result(), record))
                                .onSuccess(records -> steps.mark("records exchanged"))))
                .compose(outcome -> local.bcast(outcome, root))
                .compose(outcome -> {
                    steps.mark("records shared");
                    ZnodeJson both = ZnodeJson.parse(Outcome.open(outcome, verb(side)).getBytes(), verb(side) + " record");
                    InterTable table = new InterTable(GroupRecord.fromJson(both.object("accept")),
                            GroupRecord.fromJson(both.object("connect")), side, rank);
                    GroupRecord.requireSameLinks(table.group(side), table.group(side.other()));
                    Bridge bridge = bound.result();
                    return bridge.join(table.union(), table.self(), label(side, rank))
                            .compose(union -> new LeaderSetup(table, union.collectiveChannel(), local, options.interPhase(), grid)
                                    .run()
                                    .onSuccess(leaders -> steps.mark("crossing pair"))
                                    // The intra-group phases get a communicator of their own (same ranks and plan), so
                                    // they never take sequence numbers from the program's collectives on the group.
                                    .compose(leaders -> group.split(0, rank).onSuccess(phases -> steps.mark("split"))
                                            .map(phases -> new InterCommunicator(vertx,
                                            options, table, leaders, union, bridge, local,
                                            new Collectives(phases, local.plan(), local.settings()), grid))));
                });
    }

    /**
     * The roots' first step: fresh X25519 keys through the port's znodes; the pairing key is HMAC-SHA-256 under the
     * port's key of what they agree, bound to the request's path. Key generation and agreement run on a worker.
     */
    private Future<Meeting> meet(NameService service, Side side, PortName port, byte[] portKey, Duration patience) {
        return vertx.executeBlocking(EphemeralKey::generate).compose(mine -> (side == Side.ACCEPT
                        ? service.answer(port, mine.publicKey(), patience) : service.offer(port, mine.publicKey(), patience))
                .compose(rendezvous -> vertx.executeBlocking(() -> new Meeting(rendezvous, JobSecret.hmac(portKey,
                        mine.agree(rendezvous.theirKey(), side, PAIRING_LABEL + rendezvous.request(), verb(side)))))
                        .onFailure(e -> service.withdraw(rendezvous))));
    }

    /** The roots' second step: this group's record out, the other's in; both records, accepting first. */
    private Future<Buffer> pairAtRoot(Side side, Meeting meeting, GroupRecord mine) {
        return names.get()
                .compose(service -> service.exchange(meeting.rendezvous(), mine, new NameRecordSeal(JobSecret.of(meeting.key()))))
                .map(theirs -> {
                    GroupRecord accepting = side == Side.ACCEPT ? mine : theirs;
                    GroupRecord connecting = side == Side.ACCEPT ? theirs : mine;
                    return new JsonObject().put("accept", accepting.toJson()).put("connect", connecting.toJson()).toBuffer();
                });
    }

    /** The group's record from every member's outcome: its address and coordinates, or why it has none. */
    private GroupRecord record(List<Buffer> members) {
        Communicator group = local.communicator();
        List<Member> decoded = new ArrayList<>(members.size());
        for (int r = 0; r < members.size(); r++) {
            Optional<String> failed = Outcome.reason(members.get(r));
            if (failed.isPresent()) {
                throw new IllegalStateException(failed.get());
            }
            Buffer member = Outcome.open(members.get(r), "rank " + r + "'s address");
            decoded.add(MemberCodec.fromJson(ZnodeJson.parse(member.getBytes(), "member " + r + " of the group")));
        }
        return new GroupRecord(group.member(0).id().value() + "/c" + group.contextId(), group.contextId(), decoded,
                options.tls().isPresent());
    }

    private static String label(Side side, int rank) {
        return "ic-" + side.name().toLowerCase(Locale.ROOT) + "#" + rank;
    }

    private static String verb(Side side) {
        return side == Side.ACCEPT ? "accept" : "connect";
    }

    /** What a root holds between the two steps: where the pairing meets, and its key. */
    private record Meeting(NameService.Rendezvous rendezvous, byte[] key) {
    }
}
