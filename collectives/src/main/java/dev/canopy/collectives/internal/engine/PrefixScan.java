package dev.canopy.collectives.internal.engine;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.reduce.ReduceOp;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Scan and exscan that cross the WAN once, along the fastest paths. The ranks fall into blocks:
 * maximal runs of consecutive ranks on one site (one block per site when ranks follow the
 * coordinates, as in WORLD).
 * <ol>
 *   <li>step {@code first}: within each block, Hillis–Steele rounds on the LAN: in round k a member
 *       sends its running prefix to the member 2^k places after it in the block and folds in the
 *       one from 2^k places before, so after ⌈log₂ n⌉ rounds every member holds the prefix of its
 *       block up to itself, and the block's last member holds the block's total;</li>
 *   <li>step {@code first + 1}: the last member hands the total to the block's first member;</li>
 *   <li>steps {@code first + 3} on: the blocks' first members send their totals to every later
 *       block's first member along the fastest paths of the plan's latencies ({@link SiteRoutes},
 *       forward pairs only), relayed by {@link CoordinatorRelay} as alltoall relays its aggregates;
 *       so the WAN is crossed
 *       once, the slowest pair taking its fastest path; above {@value #RELAYED_TOTALS_LIMIT} blocks
 *       (a split that interleaves sites) they run the same Hillis–Steele rounds among themselves;</li>
 *   <li>step {@code first + 2}: each block's first member sends the prefix of all earlier blocks down
 *       a binomial tree over its block, and every member puts it in front of its own prefix.</li>
 * </ol>
 * Contributions are always combined lower ranks on the left, so operators that are not commutative
 * get the rank-ordered result. A member hears from one source in step order: the only source it
 * hears from twice is a lower member of its block, whose Hillis–Steele message precedes its prefix.
 */
public final class PrefixScan {

    /** Up to this many blocks, totals travel along the fastest paths; beyond, in log₂ rounds. */
    static final int RELAYED_TOTALS_LIMIT = 16;

    /** Rank r's prefixes: over ranks 0..r, and over 0..r-1 (null at rank 0). */
    public record Prefixes(Buffer inclusive, Buffer exclusive) {
    }

    private final Exchange exchange;
    private final Sites sites;
    private final RankLatencies latencies;
    private final double relayHopMs;
    private final int first;

    /**
     * @param latencies predicted one-way latencies between ranks (the plan's), for the totals' routes
     * @param relayHopMs what one more hop costs a total (see {@link SiteRoutes#fastest})
     */
    public PrefixScan(Exchange exchange, Sites sites, RankLatencies latencies, double relayHopMs, int first) {
        this.exchange = exchange;
        this.sites = sites;
        this.latencies = latencies;
        this.relayHopMs = relayHopMs;
        this.first = first;
    }

    public Future<Prefixes> run(Buffer mine, ElementType type, ReduceOp op) {
        List<int[]> blocks = blocks();
        int me = exchange.rank();
        int myBlock = blockOf(blocks, me);
        int[] members = blocks.get(myBlock);
        int position = me - members[0];
        Combiner combine = (left, right) -> op.combine(type, left, right);
        return hillisSteele(members, position, mine, first, combine).compose(local -> {
            if (blocks.size() == 1) {
                return Future.succeededFuture(local);
            }
            Future<Buffer> earlierBlocks = blockTotal(members, position, local.inclusive())
                    .compose(total -> total == null ? Future.succeededFuture(null)
                            : earlierTotals(blocks, myBlock, total, combine));
            if (myBlock == 0) {
                return earlierBlocks.map(local);
            }
            return earlierBlocks.compose(prefix -> distribute(members, position, prefix))
                    .map(prefix -> new Prefixes(combine.apply(prefix, local.inclusive()),
                            local.exclusive() == null ? prefix : combine.apply(prefix, local.exclusive())));
        });
    }

    /** The block's total at its first member (null elsewhere), handed over by the last member. */
    private Future<Buffer> blockTotal(int[] members, int position, Buffer inclusive) {
        int last = members.length - 1;
        if (last == 0) {
            return Future.succeededFuture(inclusive);
        }
        if (position == last) {
            return exchange.send(members[0], first + 1, inclusive).map((Buffer) null);
        }
        return position == 0 ? exchange.receive(members[last], first + 1) : Future.succeededFuture(null);
    }

    /** At a block's first member: the combined totals of all earlier blocks (null for block 0). */
    private Future<Buffer> earlierTotals(List<int[]> blocks, int myBlock, Buffer myTotal, Combiner combine) {
        int[] firstMembers = blocks.stream().mapToInt(block -> block[0]).toArray();
        if (blocks.size() > RELAYED_TOTALS_LIMIT) {
            return hillisSteele(firstMembers, myBlock, myTotal, first + 3, combine).map(Prefixes::exclusive);
        }
        List<String> blockNames = new ArrayList<>(exchange.size());
        for (int block = 0; block < blocks.size(); block++) {
            for (int i = 0; i < blocks.get(block).length; i++) {
                blockNames.add("block " + block);
            }
        }
        Sites blockSites = Sites.of(blockNames);
        RankBlocks.Builder toLater = RankBlocks.builder();
        for (int block = myBlock + 1; block < blocks.size(); block++) {
            toLater.put(firstMembers[block], myTotal);
        }
        SortedMap<Integer, RankBlocks> own = new TreeMap<>(Map.of(exchange.rank(), toLater.build()));
        List<Future<Void>> sends = new ArrayList<>();
        SiteRoutes forward = SiteRoutes.fastest(blockSites, latencies, relayHopMs).forwardOnly();
        Future<List<RankBlocks>> received = new CoordinatorRelay(exchange, blockSites, forward, first + 3)
                .run(Future.succeededFuture(own), sends);
        return received.compose(perMember -> Future.all(sends).map(perMember.get(0))).map(fromOthers -> {
            Buffer prefix = null;
            for (int block = 0; block < myBlock; block++) {
                Buffer total = fromOthers.block(firstMembers[block]);
                // A total is a slice of a relay message: copied, as it may become a result.
                prefix = prefix == null ? total.copy() : combine.apply(prefix, total);
            }
            return prefix;
        });
    }

    /**
     * Sends {@code prefix} from the block's first member down a binomial tree over the block and
     * completes with it on every member.
     */
    private Future<Buffer> distribute(int[] members, int position, Buffer prefix) {
        int n = members.length;
        int lowestBit = position == 0 ? Integer.highestOneBit(Math.max(1, n - 1)) << 1 : Integer.lowestOneBit(position);
        Future<Buffer> received = position == 0
                ? Future.succeededFuture(prefix)
                : exchange.receive(members[position - lowestBit], first + 2);
        return received.compose(value -> {
            List<Future<Void>> sends = new ArrayList<>();
            for (int distance = lowestBit >> 1; distance >= 1; distance >>= 1) {
                if (position + distance < n) {
                    sends.add(exchange.send(members[position + distance], first + 2, value));
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
        // A copy: at the first position the inclusive prefix is the caller's own buffer, which must not
        // become the result.
        return round(members, position, 1, new Prefixes(mine.copy(), null), step, combine);
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

    @FunctionalInterface
    private interface Combiner {
        Buffer apply(Buffer lowerRanks, Buffer higherRanks);
    }
}
