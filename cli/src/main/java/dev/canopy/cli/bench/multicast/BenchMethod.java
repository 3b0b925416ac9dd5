package dev.canopy.cli.bench.multicast;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.multicast.BroadcastLayer;
import dev.canopy.collectives.internal.multicast.MulticastBroadcast;
import dev.canopy.multicast.internal.reliable.MulticastStats;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.Optional;

/** One way of broadcasting that the bench compares, over the same members (indexed by rank). */
interface BenchMethod {

    String name();

    /** Rank {@code rank}'s side of a bcast from {@code root}; may be called from any thread. */
    Future<Buffer> bcast(int rank, Buffer data, int root);

    /** The substrate's counters summed over the members and at {@code root}; empty for point-to-point trees. */
    Optional<Counters> counters(int root);

    /** Retransmissions summed over every member, and ACK/credit messages the root received. */
    record Counters(long retransmissions, long acksAtRoot) {
    }

    /** Canopy's point-to-point trees, with the members' collectives settings (pipelined or not). */
    static BenchMethod pointToPoint(String name, List<Collectives> members) {
        return new BenchMethod() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Future<Buffer> bcast(int rank, Buffer data, int root) {
                return members.get(rank).bcast(data, root);
            }

            @Override
            public Optional<Counters> counters(int root) {
                return Optional.empty();
            }
        };
    }

    /** The multicast layer, one {@link MulticastBroadcast} per member. */
    static BenchMethod multicast(List<BroadcastLayer> layers) {
        return new BenchMethod() {
            @Override
            public String name() {
                return "multicast";
            }

            @Override
            public Future<Buffer> bcast(int rank, Buffer data, int root) {
                return layers.get(rank).bcast(data, root);
            }

            @Override
            public Optional<Counters> counters(int root) {
                long retransmissions = 0;
                long acks = 0;
                for (int rank = 0; rank < layers.size(); rank++) {
                    MulticastStats stats = Blocking.await(((MulticastBroadcast) layers.get(rank)).stats());
                    retransmissions += stats.retransmissions();
                    if (rank == root) {
                        acks = stats.feedbackReceived();
                    }
                }
                return Optional.of(new Counters(retransmissions, acks));
            }
        };
    }
}
