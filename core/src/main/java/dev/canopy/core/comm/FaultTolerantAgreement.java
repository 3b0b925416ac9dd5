package dev.canopy.core.comm;

import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeLogger;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.x.async.AsyncCuratorFramework;
import org.apache.curator.x.async.api.CreateOption;
import org.apache.zookeeper.KeeperException;
import org.slf4j.LoggerFactory;

/**
 * Agreement among the surviving members of a communicator that holds when any of them fail during it,
 * decided through ZooKeeper. Each member writes its vote under
 * {@code /canopy/jobs/<job>/agreements/<communicator>-<n>/votes/<node id>} (the communicator named by
 * {@link AgreementKeys}); any member that sees a vote from every
 * member it does not know to be gone computes the decision from the votes present and creates
 * {@code .../decision}. ZooKeeper's create is atomic, so exactly one decision is written, and everyone
 * returns that one: no coordinator whose failure could split the survivors, and a member that dies
 * before voting is left out once it is known gone (within a second on loopback, see {@code FailureMonitor}).
 * Members poll for the decision at 5 ms, backing off to 50 ms.
 *
 * <p>Used by {@link Communicator#agree} (AND of the flags) and {@link Communicator#shrink()} (the survivors and
 * the new context id). Owned by the runtime's context.
 */
final class FaultTolerantAgreement {

    private static final long FIRST_POLL_MS = 5;
    private static final long MAX_POLL_MS = 50;

    private final CommunicatorRuntime runtime;
    private final AsyncCuratorFramework zooKeeper;
    private final NodeLogger log;

    FaultTolerantAgreement(CommunicatorRuntime runtime, CuratorFramework client, JobId job) {
        this.runtime = runtime;
        this.zooKeeper = AsyncCuratorFramework.wrap(client.usingNamespace("canopy/jobs/" + job.name()));
        this.log = new NodeLogger(LoggerFactory.getLogger(FaultTolerantAgreement.class), runtime.nodeLabel());
    }

    /**
     * The AND of the flags of the members that voted. Decision: the result, then one byte per rank (1 = its vote
     * was counted). A member the decider took for gone (a false suspicion on a starved machine) may still be
     * alive and voting: its vote is not in the result, so it must not return the result as its own agreement;
     * it fails instead, as a shrink leaves it out.
     */
    Future<Boolean> agree(GroupCommunicator communicator, int round, boolean flag) {
        int size = communicator.size();
        Buffer vote = Buffer.buffer(1).appendByte((byte) (flag ? 1 : 0));
        return decide(communicator, round, vote, votes -> {
            boolean all = votes.values().stream().allMatch(v -> requireLength(v, 1, "agreement vote").getByte(0) == 1);
            Buffer decision = Buffer.buffer(1 + size).appendByte((byte) (all ? 1 : 0));
            for (int r = 0; r < size; r++) {
                decision.appendByte((byte) (votes.containsKey(r) ? 1 : 0));
            }
            return decision;
        }).compose(decision -> {
            requireLength(decision, 1 + size, "agreement decision");
            if (decision.getByte(1 + communicator.rank()) != 1) {
                log.warn("left out of agreement round {} of context {}: the decider took this node for gone",
                        round, communicator.contextId());
                return Future.failedFuture(new RankFailedException(communicator.rank(), runtime.self().id(),
                        "the agreement was decided without this node's vote (the survivors consider it failed)"));
            }
            return Future.succeededFuture(decision.getByte(0) == 1);
        });
    }

    /**
     * Vote: one byte per rank (1 = alive as this member sees it), then this member's context id offer
     * ({@link ContextIdOffer}). Decision: the new context id, chosen from every voter's offer, then one byte
     * per rank: survivors are the members that voted, are not known gone to the decider, and that no vote
     * calls failed.
     */
    Future<Communicator> shrink(GroupCommunicator parent, int round) {
        int size = parent.size();
        Buffer vote = Buffer.buffer(size + 8);
        for (int r = 0; r < size; r++) {
            vote.appendByte((byte) (parent.isAlive(r) ? 1 : 0));
        }
        runtime.contextIdOffer().appendTo(vote);
        return decide(parent, round, vote, votes -> {
            List<ContextIdOffer> offers = votes.values().stream().map(v -> ContextIdOffer.read(v, size)).toList();
            Buffer decision = Buffer.buffer(4 + size).appendInt(ContextIdOffer.choose(offers, 1).get(0));
            for (int r = 0; r < size; r++) {
                int rank = r;
                boolean survives = votes.containsKey(r) && parent.isAlive(r)
                        && votes.values().stream().allMatch(v -> v.getByte(rank) == 1);
                decision.appendByte((byte) (survives ? 1 : 0));
            }
            return decision;
        }).compose(decision -> {
            requireLength(decision, 4 + size, "shrink decision");
            int id = decision.getInt(0);
            runtime.claimContextIds(List.of(id));
            List<Member> survivors = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                if (decision.getByte(4 + r) == 1) {
                    survivors.add(parent.member(r));
                }
            }
            if (!survivors.contains(runtime.self())) {
                log.warn("left out of the shrink of context {}: decision {}", parent.contextId(),
                        HexFormat.of().formatHex(decision.getBytes()));
                return Future.failedFuture(new RankFailedException(parent.rank(), runtime.self().id(),
                        "the survivors of the shrink left this node out (they consider it failed)"));
            }
            return Future.succeededFuture(runtime.register(id, survivors));
        });
    }

    private Future<Buffer> decide(GroupCommunicator communicator, int round, Buffer vote,
            Function<Map<Integer, Buffer>, Buffer> decider) {
        String base = "/agreements/" + communicator.agreementKey() + "-" + round;
        Promise<Buffer> decided = Promise.promise();
        Future.fromCompletionStage(zooKeeper.create().withOptions(EnumSet.of(CreateOption.createParentsIfNeeded))
                        .forPath(base + "/votes/" + runtime.self().id(), vote.getBytes()), runtime.context())
                .recover(e -> e instanceof KeeperException.NodeExistsException ? Future.succeededFuture()
                        : Future.failedFuture(new IllegalStateException("cannot vote in agreement " + base
                                + " in ZooKeeper: " + e.getMessage(), e)))
                .onSuccess(v -> poll(communicator, base, decider, decided, FIRST_POLL_MS))
                .onFailure(decided::fail);
        return decided.future();
    }

    private void poll(GroupCommunicator communicator, String base, Function<Map<Integer, Buffer>, Buffer> decider,
            Promise<Buffer> decided, long delayMs) {
        RankFailedException closed = communicator.sendFailureOf(communicator.rank());
        if (closed != null) {
            decided.fail(closed); // this node left the job or lost its session: it takes no further part
            return;
        }
        readDecision(base).compose(existing -> existing != null ? Future.succeededFuture(existing)
                        : tryToDecide(communicator, base, decider))
                .onSuccess(decision -> {
                    if (decision != null) {
                        decided.complete(decision);
                    } else {
                        runtime.context().owner().setTimer(delayMs, id -> poll(communicator, base, decider, decided,
                                Math.min(MAX_POLL_MS, delayMs * 2)));
                    }
                })
                .onFailure(decided::fail);
    }

    /** The decision when every member has voted or is known gone (null otherwise). */
    private Future<Buffer> tryToDecide(GroupCommunicator communicator, String base,
            Function<Map<Integer, Buffer>, Buffer> decider) {
        return Future.fromCompletionStage(zooKeeper.getChildren().forPath(base + "/votes"), runtime.context())
                .compose(children -> {
                    Map<String, Integer> rankById = new HashMap<>();
                    for (int r = 0; r < communicator.size(); r++) {
                        rankById.put(communicator.member(r).id().toString(), r);
                    }
                    List<Integer> voters = children.stream().map(rankById::get).filter(r -> r != null).toList();
                    for (int r = 0; r < communicator.size(); r++) {
                        if (!voters.contains(r) && communicator.isAlive(r)) {
                            return Future.succeededFuture(null);
                        }
                    }
                    return readVotes(communicator, base, voters).compose(votes -> {
                        Buffer decision = decider.apply(votes);
                        log.debug("deciding agreement {} from the votes of ranks {}: {}", base, votes.keySet(),
                                HexFormat.of().formatHex(decision.getBytes()));
                        return create(base, decision);
                    });
                });
    }

    private Future<Map<Integer, Buffer>> readVotes(GroupCommunicator communicator, String base, List<Integer> voters) {
        Map<Integer, Buffer> votes = new HashMap<>();
        List<Future<?>> reads = new ArrayList<>();
        for (int r : voters) {
            reads.add(Future.fromCompletionStage(zooKeeper.getData().forPath(base + "/votes/" + communicator.member(r).id()),
                    runtime.context()).onSuccess(bytes -> votes.put(r, Buffer.buffer(bytes))));
        }
        return Future.all(reads).map(done -> votes);
    }

    /** Creates the decision; when another member created it first, reads theirs. */
    private Future<Buffer> create(String base, Buffer decision) {
        return Future.fromCompletionStage(zooKeeper.create().forPath(base + "/decision", decision.getBytes()),
                        runtime.context())
                .map(created -> decision)
                .recover(e -> e instanceof KeeperException.NodeExistsException ? readDecision(base)
                        : Future.failedFuture(e));
    }

    private Future<Buffer> readDecision(String base) {
        return Future.fromCompletionStage(zooKeeper.getData().forPath(base + "/decision"), runtime.context())
                .map(Buffer::buffer)
                .recover(e -> e instanceof KeeperException.NoNodeException ? Future.succeededFuture(null)
                        : Future.failedFuture(e));
    }

    private static Buffer requireLength(Buffer bytes, int length, String what) {
        if (bytes.length() != length) {
            throw new IllegalStateException(what + " in ZooKeeper has " + bytes.length() + " bytes, expected " + length);
        }
        return bytes;
    }
}
