package dev.canopy.collectives.engine;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.reduce.ReduceOp;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Scan and exscan that cross the WAN once. The ranks fall into blocks: maximal runs of consecutive
 * ranks on one site (one block per site when ranks follow the coordinates, as in WORLD).
 * <ol>
 *   <li>step {@code first}: within each block, Hillis–Steele rounds on the LAN: in round k a member
 *       sends its running prefix to the member 2^k places after it in the block and folds in the
 *       one from 2^k places before, so after ⌈log₂ n⌉ rounds every member holds the prefix of its
 *       block up to itself, and the block's last member holds the block's total;</li>
 *   <li>step {@code first + 1}: the blocks' last members exchange totals: each sends its total straight
 *       to every later block's last member (one WAN message deep), or, above
 *       {@value #DIRECT_TOTALS_LIMIT} blocks, runs the same Hillis–Steele rounds among themselves;</li>
 *   <li>step {@code first + 2}: each block's last member sends the prefix of all earlier blocks down a
 *       binomial tree over its block, and every member puts it in front of its own prefix.</li>
 * </ol>
 * Contributions are always combined lower ranks on the left, so operators that are not commutative
 * get the rank-ordered result. A member receives from one source in one step only.
 */
public final class PrefixScan {

    /** Up to this many blocks, totals go straight to every later block; beyond, in log₂ rounds. */
    static final int DIRECT_TOTALS_LIMIT = 16;

    /** Rank r's prefixes: over ranks 0..r, and over 0..r-1 (null at rank 0). */
    public record Prefixes(Buffer inclusive, Buffer exclusive) {
    }

    private final Exchange exchange;
    private final Sites sites;
    private final int first;

    public PrefixScan(Exchange exchange, Sites sites, int first) {
        this.exchange = exchange;
        this.sites = sites;
        this.first = first;
    }

    public Future<Prefixes> run(Buffer mine, ElementType type, ReduceOp op) {
        List<int[]> blocks = blocks();
        int me = exchange.rank();
        int myBlock = blockOf(blocks, me);
        int[] members = blocks.get(myBlock);
        Combiner combine = (left, right) -> op.combine(type, left, right);
        boolean last = members[members.length - 1] == me;
        return hillisSteele(members, position(members, me), mine, first, combine).compose(local -> {
            Future<Buffer> earlierBlocks = last
                    ? blockTotals(blocks, myBlock, local.inclusive(), combine).map(Prefixes::exclusive)
                    : Future.succeededFuture(null);
            if (myBlock == 0) {
                return earlierBlocks.map(local);
            }
            return earlierBlocks.compose(prefix -> distribute(members, prefix))
                    .map(prefix -> new Prefixes(combine.apply(prefix, local.inclusive()),
                            local.exclusive() == null ? prefix : combine.apply(prefix, local.exclusive())));
        });
    }

    /**
     * Every block's last member learns the combined totals of all earlier blocks (returned as the
     * exclusive prefix); block 0's last member only sends.
     */
    private Future<Prefixes> blockTotals(List<int[]> blocks, int myBlock, Buffer myTotal, Combiner combine) {
        int[] lastMembers = blocks.stream().mapToInt(block -> block[block.length - 1]).toArray();
        if (blocks.size() > DIRECT_TOTALS_LIMIT) {
            return hillisSteele(lastMembers, myBlock, myTotal, first + 1, combine);
        }
        List<Future<Void>> sends = new ArrayList<>();
        for (int later = myBlock + 1; later < blocks.size(); later++) {
            sends.add(exchange.send(lastMembers[later], first + 1, myTotal));
        }
        List<Future<Buffer>> earlier = new ArrayList<>();
        for (int block = 0; block < myBlock; block++) {
            earlier.add(exchange.receive(lastMembers[block], first + 1));
        }
        return Future.all(Future.all(sends), Future.all(earlier)).map(all -> {
            Buffer prefix = null;
            for (Future<Buffer> total : earlier) {
                prefix = prefix == null ? total.result() : combine.apply(prefix, total.result());
            }
            return new Prefixes(myTotal, prefix);
        });
    }

    /**
     * Sends {@code prefix} from the block's last member down a binomial tree over the block (position
     * counted back from the last member) and completes with it on every member.
     */
    private Future<Buffer> distribute(int[] members, Buffer prefix) {
        int n = members.length;
        int relative = n - 1 - position(members, exchange.rank());
        int lowestBit = relative == 0 ? Integer.highestOneBit(Math.max(1, n - 1)) << 1 : Integer.lowestOneBit(relative);
        Future<Buffer> received = relative == 0
                ? Future.succeededFuture(prefix)
                : exchange.receive(members[n - 1 - (relative - lowestBit)], first + 2);
        return received.compose(value -> {
            List<Future<Void>> sends = new ArrayList<>();
            for (int distance = lowestBit >> 1; distance >= 1; distance >>= 1) {
                if (relative + distance < n) {
                    sends.add(exchange.send(members[n - 1 - (relative + distance)], first + 2, value));
                }
            }
            return Future.all(sends).map(value);
        });
    }

    /**
     * Hillis–Steele prefix rounds over {@code members} (ranks in rank order) at {@code step}: completes
     * with this member's prefix over members 0..position and 0..position-1 (null at position 0).
     */
    private Future<Prefixes> hillisSteele(int[] members, int position, Buffer mine, int step, Combiner combine) {
        return round(members, position, 1, new Prefixes(mine, null), step, combine);
    }

    private Future<Prefixes> round(int[] members, int position, int distance, Prefixes sofar, int step,
            Combiner combine) {
        if (distance >= members.length) {
            return Future.succeededFuture(sofar);
        }
        Future<Void> sent = position + distance < members.length
                ? exchange.send(members[position + distance], step, sofar.inclusive())
                : Future.succeededFuture();
        Future<Prefixes> next = position - distance >= 0
                ? exchange.receive(members[position - distance], step).map(before -> new Prefixes(
                        combine.apply(before, sofar.inclusive()),
                        sofar.exclusive() == null ? before : combine.apply(before, sofar.exclusive())))
                : Future.succeededFuture(sofar);
        return Future.all(sent, next).compose(both -> round(members, position, distance * 2, next.result(), step,
                combine));
    }

    /** Maximal runs of consecutive ranks on one site, in rank order. */
    private List<int[]> blocks() {
        List<int[]> blocks = new ArrayList<>();
        int start = 0;
        for (int rank = 1; rank <= exchange.size(); rank++) {
            if (rank == exchange.size() || !sites.sameSite(rank, start)) {
                int[] block = new int[rank - start];
                for (int i = 0; i < block.length; i++) {
                    block[i] = start + i;
                }
                blocks.add(block);
                start = rank;
            }
        }
        return blocks;
    }

    private static int blockOf(List<int[]> blocks, int rank) {
        for (int block = 0; block < blocks.size(); block++) {
            int[] members = blocks.get(block);
            if (rank >= members[0] && rank <= members[members.length - 1]) {
                return block;
            }
        }
        throw new IllegalArgumentException("rank " + rank + " is in no block");
    }

    private static int position(int[] members, int rank) {
        return rank - members[0];
    }

    @FunctionalInterface
    private interface Combiner {
        Buffer apply(Buffer lowerRanks, Buffer higherRanks);
    }
}
