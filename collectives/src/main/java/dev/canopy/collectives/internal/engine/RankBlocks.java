package dev.canopy.collectives.internal.engine;

import dev.canopy.collectives.data.MalformedMessageException;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One block of bytes per rank, for some set of ranks: what gathers carry up and scatters carry
 * down a tree. Immutable; {@link #builder()} collects blocks one at a time without copying.
 * Wire form, big-endian: {@code int count}, then per block {@code int rank, int length, bytes},
 * in ascending rank order:
 *
 * <pre>
 *  offset  size    field
 *       0     4    count           blocks that follow, 0 .. (length - 4) / 8
 *       4     4    rank            of the first block, >= 0, each rank above the one before
 *       8     4    length          bytes of the block, 0 .. what is left
 *      12     length  bytes
 *     ...          the next block: rank, length, bytes; nothing after the last block
 * </pre>
 *
 * Decoding checks every count, rank and length before it uses it and throws
 * {@link MalformedMessageException}; which ranks a message may hold is checked by whoever expects
 * it ({@link #requireRanks}).
 */
public final class RankBlocks {

    private static final int COUNT_BYTES = Integer.BYTES;
    /** rank and length in front of every block */
    private static final int BLOCK_HEADER_BYTES = 2 * Integer.BYTES;

    private final TreeMap<Integer, Buffer> blocks;

    private RankBlocks(TreeMap<Integer, Buffer> blocks) {
        this.blocks = blocks;
    }

    public static RankBlocks empty() {
        return new RankBlocks(new TreeMap<>());
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Block r of the list for rank r. */
    public static RankBlocks ofRanks(List<Buffer> blocksByRank) {
        Builder builder = builder();
        for (int rank = 0; rank < blocksByRank.size(); rank++) {
            builder.put(rank, blocksByRank.get(rank));
        }
        return builder.build();
    }

    /** The blocks of ranks 0..size-1 in rank order; a missing rank is a bug reported with the ranks present. */
    public List<Buffer> inRankOrder(int size) {
        List<Buffer> ordered = new ArrayList<>(size);
        for (int rank = 0; rank < size; rank++) {
            ordered.add(block(rank));
        }
        return ordered;
    }

    /** The blocks of {@code ranks} only; a missing rank is a bug in the tree or the caller. */
    public RankBlocks select(int[] ranks) {
        Builder selected = builder();
        for (int rank : ranks) {
            selected.put(rank, block(rank));
        }
        return selected.build();
    }

    /**
     * The same blocks, each copied into a buffer of its own: for handing {@link #sliced} blocks of a
     * large message to a caller, who then keeps only its blocks alive, not the whole message.
     */
    public RankBlocks copied() {
        Builder copies = builder();
        blocks.forEach((rank, block) -> copies.put(rank, block.copy()));
        return copies.build();
    }

    public Buffer block(int rank) {
        Buffer block = blocks.get(rank);
        if (block == null) {
            throw new IllegalStateException("no block for rank " + rank + " among ranks " + blocks.keySet());
        }
        return block;
    }

    /** The ranks that have a block, in ascending order. */
    public List<Integer> ranks() {
        return List.copyOf(blocks.keySet());
    }

    public int count() {
        return blocks.size();
    }

    /** The length of {@link #encode()}'s result, known before encoding so that blocks nest without copies. */
    public int encodedLength() {
        long blockBytes = 0;
        for (Buffer block : blocks.values()) {
            blockBytes += block.length();
        }
        return wireLength(blocks.size(), blockBytes);
    }

    public Buffer encode() {
        return encodeTo(Buffer.buffer(encodedLength()));
    }

    /** Appends the wire form to {@code out} and returns {@code out}; every byte of every block is copied once. */
    public Buffer encodeTo(Buffer out) {
        out.appendInt(blocks.size());
        blocks.forEach((rank, block) -> out.appendInt(rank).appendInt(block.length()).appendBuffer(block));
        return out;
    }

    /**
     * The wire form of rank blocks whose block for rank r is {@code nested.get(r)}'s wire form, written
     * in one pass into one buffer: the bytes of encoding each inner one and then the outer, without
     * copying every inner block twice.
     */
    public static Buffer encodeNested(SortedMap<Integer, RankBlocks> nested) {
        long blockBytes = 0;
        for (RankBlocks inner : nested.values()) {
            blockBytes += inner.encodedLength();
        }
        Buffer out = Buffer.buffer(wireLength(nested.size(), blockBytes)).appendInt(nested.size());
        nested.forEach((rank, inner) -> inner.encodeTo(out.appendInt(rank).appendInt(inner.encodedLength())));
        return out;
    }

    private static int wireLength(int count, long blockBytes) {
        long length = COUNT_BYTES + (long) count * BLOCK_HEADER_BYTES + blockBytes;
        if (length > Integer.MAX_VALUE) {
            throw new IllegalStateException(count + " blocks of " + blockBytes + " bytes in all encode to " + length
                    + " bytes, more than one buffer holds (2 GiB)");
        }
        return (int) length;
    }

    /** Reads the wire form; every block is a buffer of its own (a copy), independent of {@code buffer}. */
    public static RankBlocks decode(Buffer buffer) {
        return read(buffer, (from, to) -> buffer.getBuffer(from, to));
    }

    /**
     * Reads the wire form without copying a byte: every block is a {@link Buffer#slice} of {@code buffer},
     * sharing its bytes and keeping all of it alive. For blocks that are passed on (re-encoded), or
     * handed out when {@code buffer} holds nothing else.
     */
    public static RankBlocks sliced(Buffer buffer) {
        return read(buffer, (from, to) -> buffer.slice(from, to));
    }

    private interface Cut {
        Buffer bytes(int from, int to);
    }

    private static RankBlocks read(Buffer buffer, Cut cut) {
        if (buffer.length() < COUNT_BYTES) {
            throw new MalformedMessageException("rank blocks of " + buffer.length() + " bytes lack their "
                    + COUNT_BYTES + "-byte count");
        }
        int count = buffer.getInt(0);
        if (count < 0 || count > (buffer.length() - COUNT_BYTES) / BLOCK_HEADER_BYTES) {
            throw new MalformedMessageException("rank blocks claim " + count + " blocks in " + buffer.length()
                    + " bytes (each block takes at least " + BLOCK_HEADER_BYTES + ")");
        }
        Builder builder = builder();
        int offset = COUNT_BYTES;
        int previousRank = -1;
        for (int i = 0; i < count; i++) {
            if (BLOCK_HEADER_BYTES > buffer.length() - offset) {
                throw new MalformedMessageException("rank blocks end after " + i + " of " + count + " blocks ("
                        + buffer.length() + " bytes)");
            }
            int rank = buffer.getInt(offset);
            int length = buffer.getInt(offset + Integer.BYTES);
            offset += BLOCK_HEADER_BYTES;
            if (rank <= previousRank) {
                throw new MalformedMessageException("block " + i + " is for rank " + rank + " after rank " + previousRank
                        + "; ranks are >= 0 and ascending, each once");
            }
            if (length < 0 || length > buffer.length() - offset) {
                throw new MalformedMessageException("block of rank " + rank + " claims " + length + " bytes at offset "
                        + offset + " of a " + buffer.length() + "-byte message");
            }
            builder.put(rank, cut.bytes(offset, offset + length));
            offset += length;
            previousRank = rank;
        }
        if (offset != buffer.length()) {
            throw new MalformedMessageException((buffer.length() - offset) + " bytes after the last of " + count
                    + " rank blocks");
        }
        return builder.build();
    }

    /**
     * These blocks, if they are for exactly {@code expected} (ascending) ranks, such as the subtree a
     * child gathered; otherwise a {@link MalformedMessageException} naming {@code what} they should be.
     */
    public RankBlocks requireRanks(int[] expected, String what) {
        int[] present = blocks.keySet().stream().mapToInt(Integer::intValue).toArray();
        if (!Arrays.equals(present, expected)) {
            throw new MalformedMessageException("blocks for ranks " + RankLists.brief(present) + " where "
                    + what + " has ranks " + RankLists.brief(expected));
        }
        return this;
    }

    /** Collects blocks rank by rank in one map that {@link #build()} hands over: no copy per block added. */
    public static final class Builder {

        private TreeMap<Integer, Buffer> blocks = new TreeMap<>();

        private Builder() {
        }

        /** A rank given twice is a bug: one collective takes one block per rank. */
        public Builder put(int rank, Buffer block) {
            if (open().put(rank, block) != null) {
                throw new IllegalStateException("rank " + rank + " contributed two blocks to one collective");
            }
            return this;
        }

        /** Like {@link #put}, for a block that came from the wire: a second block for a rank is malformed, not a bug. */
        public Builder putReceived(int rank, Buffer block) {
            if (open().putIfAbsent(rank, block) != null) {
                throw new MalformedMessageException("a second block for rank " + rank);
            }
            return this;
        }

        public Builder putAll(RankBlocks other) {
            for (Map.Entry<Integer, Buffer> entry : other.blocks.entrySet()) {
                put(entry.getKey(), entry.getValue());
            }
            return this;
        }

        /** The blocks put so far; the builder cannot be used afterwards. */
        public RankBlocks build() {
            RankBlocks built = new RankBlocks(open());
            blocks = null;
            return built;
        }

        private TreeMap<Integer, Buffer> open() {
            if (blocks == null) {
                throw new IllegalStateException("this RankBlocks.Builder already built its blocks");
            }
            return blocks;
        }
    }
}
