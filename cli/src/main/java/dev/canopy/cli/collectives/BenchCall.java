package dev.canopy.cli.collectives;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.collectives.reduce.BuiltInOp;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One member's part of the benchmarked operation with a message of {@code bytes}: the root's (or
 * every member's) buffer. Reductions sum bytes; v-variants use equal blocks.
 */
final class BenchCall {

    private BenchCall() {
    }

    static Future<?> start(Operation operation, Collectives member, int bytes, int root) {
        int n = member.size();
        Buffer message = Buffer.buffer(new byte[bytes]);
        Buffer block = Buffer.buffer(new byte[bytes / n]);
        return switch (operation) {
            case BARRIER -> member.barrier();
            case BCAST -> member.bcast(member.rank() == root ? message : null, root);
            case SCATTER -> member.scatter(member.rank() == root ? Buffer.buffer(new byte[bytes / n * n]) : null, bytes / n, root);
            case SCATTERV -> member.scatterv(member.rank() == root ? blocks(block, n) : null, root);
            case GATHER -> member.gather(block, root);
            case GATHERV -> member.gatherv(block, root);
            case ALLGATHER -> member.allgather(block);
            case ALLGATHERV -> member.allgatherv(block);
            case REDUCE -> member.reduce(message, ElementType.BYTE, BuiltInOp.SUM, root);
            case ALLREDUCE -> member.allreduce(message, ElementType.BYTE, BuiltInOp.SUM);
            case REDUCE_SCATTER -> member.reduceScatter(Buffer.buffer(new byte[bytes / n * n]), ElementType.BYTE,
                    BuiltInOp.SUM, equalCounts(bytes / n, n));
            case SCAN -> member.scan(message, ElementType.BYTE, BuiltInOp.SUM);
            case EXSCAN -> member.exscan(message, ElementType.BYTE, BuiltInOp.SUM);
            case ALLTOALL -> member.alltoall(Buffer.buffer(new byte[bytes / n * n]), bytes / n);
            case ALLTOALLV -> member.alltoallv(blocks(block, n));
        };
    }

    private static List<Buffer> blocks(Buffer block, int n) {
        List<Buffer> blocks = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            blocks.add(block);
        }
        return blocks;
    }

    private static int[] equalCounts(int count, int n) {
        int[] counts = new int[n];
        java.util.Arrays.fill(counts, count);
        return counts;
    }
}
