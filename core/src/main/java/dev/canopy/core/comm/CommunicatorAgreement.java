package dev.canopy.core.comm;

import dev.canopy.core.node.Member;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * How the members of a communicator agree on a new one, over the parent's control channel: every
 * participant sends its contribution to every other and receives theirs (an all-to-all exchange, so
 * nobody depends on a coordinator that might fail). Each then derives the same result from the same
 * contributions. Context ids follow the scheme in {@link CommunicatorRuntime}. Contributions come from
 * the wire: a malformed one fails the agreement with an {@link IllegalArgumentException}.
 */
final class CommunicatorAgreement {

    private static final int SPLIT_TAG = 1;
    private static final int SHRINK_TAG = 2;
    private static final int FREE_TAG = 3;
    private static final int ALIVE = 1;

    private enum OnRankFailure {
        FAIL,
        SKIP
    }

    private CommunicatorAgreement() {
    }

    /** Contribution: color, key, context id offer. Children: one per color, ranked by (key, parent rank). */
    static Future<Communicator> split(GroupCommunicator parent, int color, int key) {
        if (color < Communicator.UNDEFINED) {
            return Future.failedFuture(new IllegalArgumentException("split color " + color
                    + " must be 0 or more, or UNDEFINED (-1)"));
        }
        CommunicatorRuntime runtime = parent.runtime();
        Buffer mine = runtime.contextIdOffer().appendTo(Buffer.buffer().appendInt(color).appendInt(key));
        List<Integer> everyone = IntStream.range(0, parent.size()).boxed().toList();
        return exchange(parent, SPLIT_TAG, mine, everyone, OnRankFailure.FAIL).map(contributions -> {
            List<ContextIdOffer> offers = contributions.stream().map(c -> ContextIdOffer.read(c, 8)).toList();
            List<Integer> colors = contributions.stream().map(c -> c.getInt(0))
                    .filter(c -> c != Communicator.UNDEFINED).distinct().sorted().toList();
            List<Integer> ids = ContextIdOffer.choose(offers, colors.size());
            runtime.claimContextIds(ids);
            if (color == Communicator.UNDEFINED) {
                return null;
            }
            List<Member> members = IntStream.range(0, parent.size()).boxed()
                    .filter(r -> contributions.get(r).getInt(0) == color)
                    .sorted(Comparator.<Integer>comparingInt(r -> contributions.get(r).getInt(4)).thenComparing(r -> r))
                    .map(parent::member)
                    .toList();
            return runtime.register(ids.get(colors.indexOf(color)), members);
        });
    }

    /**
     * Contribution: one byte per parent rank (1 = alive as this member sees it), then a context id offer.
     * Survivors: the members that contributed and that every contribution received calls alive.
     */
    static Future<Communicator> shrink(GroupCommunicator parent) {
        CommunicatorRuntime runtime = parent.runtime();
        Buffer mine = Buffer.buffer();
        List<Integer> alive = new ArrayList<>();
        for (int r = 0; r < parent.size(); r++) {
            boolean isAlive = parent.isAlive(r);
            mine.appendByte((byte) (isAlive ? ALIVE : 0));
            if (isAlive) {
                alive.add(r);
            }
        }
        runtime.contextIdOffer().appendTo(mine);
        return exchange(parent, SHRINK_TAG, mine, alive, OnRankFailure.SKIP).compose(contributions -> {
            List<Buffer> received = contributions.stream().filter(c -> c != null).toList();
            List<ContextIdOffer> offers = received.stream().map(c -> ContextIdOffer.read(c, parent.size())).toList();
            List<Member> survivors = IntStream.range(0, parent.size())
                    .filter(r -> contributions.get(r) != null)
                    .filter(r -> received.stream().allMatch(c -> c.getByte(r) == ALIVE))
                    .mapToObj(parent::member)
                    .toList();
            int id = ContextIdOffer.choose(offers, 1).get(0);
            runtime.claimContextIds(List.of(id));
            if (!survivors.contains(runtime.self())) {
                return Future.failedFuture(new RankFailedException(parent.rank(), runtime.self().id(),
                        "another member considers this node failed, so it is not among the survivors of the shrink"));
            }
            return Future.succeededFuture(runtime.register(id, survivors));
        });
    }

    /**
     * Frees {@code communicator}: its user and collective channels stop at once; then every live member
     * tells every other, over the control channel, that it sends nothing more on this context. Frames
     * to one node leave in order over one connection, so once this node has heard from every member
     * (or knows it failed, which happens only once its frames are all in), nothing of this context is
     * still on its way here, and the id can be reused.
     */
    static Future<Void> free(GroupCommunicator communicator) {
        List<Integer> alive = IntStream.range(0, communicator.size()).filter(communicator::isAlive).boxed().toList();
        communicator.stopUserTraffic();
        return exchange(communicator, FREE_TAG, Buffer.buffer(), alive, OnRankFailure.SKIP)
                .onComplete(done -> communicator.release())
                .mapEmpty();
    }

    /**
     * Sends {@code mine} to every other rank of {@code participants} and receives theirs. The result
     * is indexed by parent rank: null for ranks that are not participants (or, with SKIP, that failed).
     */
    private static Future<List<Buffer>> exchange(GroupCommunicator parent, int tag, Buffer mine,
            List<Integer> participants, OnRankFailure onRankFailure) {
        RankChannel control = parent.control();
        List<Buffer> contributions = new ArrayList<>();
        IntStream.range(0, parent.size()).forEach(r -> contributions.add(null));
        contributions.set(parent.rank(), mine);
        List<Future<?>> steps = new ArrayList<>();
        for (int r : participants) {
            if (r == parent.rank()) {
                continue;
            }
            int source = r;
            Future<Void> sent = control.send(r, tag, mine);
            Future<Message> received = control.receive(r, tag)
                    .onSuccess(message -> contributions.set(source, message.payload()));
            if (onRankFailure == OnRankFailure.FAIL) {
                steps.add(sent);
                steps.add(received);
            } else {
                steps.add(received.recover(e -> e instanceof RankFailedException
                        ? Future.succeededFuture()
                        : Future.failedFuture(e)));
            }
        }
        return Future.all(steps).map(done -> contributions);
    }
}
