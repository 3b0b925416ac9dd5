package dev.canopy.collectives.reference;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.reduce.ReduceOp;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * What every collective must produce, computed sequentially from all ranks' inputs in one place:
 * the oracle the distributed runs are compared with. Reductions fold left in rank order.
 */
public final class SequentialReference {

    private SequentialReference() {
    }

    public static Buffer concatenation(List<Buffer> blocks) {
        Buffer all = Buffer.buffer();
        blocks.forEach(all::appendBuffer);
        return all;
    }

    public static List<Buffer> cut(Buffer data, int bytesPerBlock, int blocks) {
        List<Buffer> cut = new ArrayList<>(blocks);
        for (int i = 0; i < blocks; i++) {
            cut.add(data.getBuffer(i * bytesPerBlock, (i + 1) * bytesPerBlock));
        }
        return cut;
    }

    public static Buffer reduction(List<Buffer> inputs, ElementType type, ReduceOp op) {
        Buffer result = inputs.get(0);
        for (int rank = 1; rank < inputs.size(); rank++) {
            result = op.combine(type, result, inputs.get(rank));
        }
        return result;
    }

    /** Rank r's inclusive prefix: op over ranks 0..r. */
    public static List<Buffer> inclusivePrefixes(List<Buffer> inputs, ElementType type, ReduceOp op) {
        List<Buffer> prefixes = new ArrayList<>(inputs.size());
        for (int rank = 0; rank < inputs.size(); rank++) {
            prefixes.add(reduction(inputs.subList(0, rank + 1), type, op));
        }
        return prefixes;
    }

    /** Block r of the reduction, {@code counts[r]} elements each, in order. */
    public static List<Buffer> reducedBlocks(List<Buffer> inputs, ElementType type, ReduceOp op, int[] counts) {
        Buffer all = reduction(inputs, type, op);
        List<Buffer> blocks = new ArrayList<>(counts.length);
        int offset = 0;
        for (int count : counts) {
            blocks.add(all.getBuffer(offset, offset + count * type.size()));
            offset += count * type.size();
        }
        return blocks;
    }

    /** What rank {@code receiver} gets from all-to-all: block {@code receiver} of every rank's list, by source. */
    public static List<Buffer> transpose(List<List<Buffer>> blocksByRank, int receiver) {
        List<Buffer> received = new ArrayList<>(blocksByRank.size());
        for (List<Buffer> blocks : blocksByRank) {
            received.add(blocks.get(receiver));
        }
        return received;
    }
}
