package dev.canopy.collectives.engine;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One block of bytes per rank, for some set of ranks: what gathers carry up and scatters carry
 * down a tree. Wire form: {@code int count}, then per block {@code int rank, int length, bytes},
 * in ascending rank order.
 */
public final class RankBlocks {

    private final TreeMap<Integer, Buffer> blocks;

    private RankBlocks(TreeMap<Integer, Buffer> blocks) {
        this.blocks = blocks;
    }

    public static RankBlocks empty() {
        return new RankBlocks(new TreeMap<>());
    }

    public static RankBlocks of(int rank, Buffer block) {
        return empty().with(rank, block);
    }

    /** Block r of the list for rank r. */
    public static RankBlocks ofRanks(List<Buffer> blocksByRank) {
        TreeMap<Integer, Buffer> blocks = new TreeMap<>();
        for (int rank = 0; rank < blocksByRank.size(); rank++) {
            blocks.put(rank, blocksByRank.get(rank));
        }
        return new RankBlocks(blocks);
    }

    /** The blocks of ranks 0..size-1 in rank order; a missing rank is a bug reported with the ranks present. */
    public List<Buffer> inRankOrder(int size) {
        List<Buffer> ordered = new ArrayList<>(size);
        for (int rank = 0; rank < size; rank++) {
            ordered.add(block(rank));
        }
        return ordered;
    }

    public RankBlocks with(int rank, Buffer block) {
        TreeMap<Integer, Buffer> copy = new TreeMap<>(blocks);
        if (copy.put(rank, block) != null) {
            throw new IllegalStateException("rank " + rank + " contributed two blocks to one collective");
        }
        return new RankBlocks(copy);
    }

    public RankBlocks withAll(RankBlocks other) {
        TreeMap<Integer, Buffer> merged = new TreeMap<>(blocks);
        for (Map.Entry<Integer, Buffer> entry : other.blocks.entrySet()) {
            if (merged.put(entry.getKey(), entry.getValue()) != null) {
                throw new IllegalStateException("rank " + entry.getKey() + " contributed two blocks to one collective");
            }
        }
        return new RankBlocks(merged);
    }

    /** The blocks of {@code ranks} only; a missing rank is a bug in the tree or the caller. */
    public RankBlocks select(int[] ranks) {
        TreeMap<Integer, Buffer> selected = new TreeMap<>();
        for (int rank : ranks) {
            selected.put(rank, block(rank));
        }
        return new RankBlocks(selected);
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

    public Buffer encode() {
        Buffer out = Buffer.buffer().appendInt(blocks.size());
        blocks.forEach((rank, block) -> out.appendInt(rank).appendInt(block.length()).appendBuffer(block));
        return out;
    }

    public static RankBlocks decode(Buffer buffer) {
        TreeMap<Integer, Buffer> blocks = new TreeMap<>();
        int count = buffer.getInt(0);
        int offset = Integer.BYTES;
        for (int i = 0; i < count; i++) {
            int rank = buffer.getInt(offset);
            int length = buffer.getInt(offset + 4);
            offset += 8;
            blocks.put(rank, buffer.getBuffer(offset, offset + length));
            offset += length;
        }
        return new RankBlocks(blocks);
    }
}
