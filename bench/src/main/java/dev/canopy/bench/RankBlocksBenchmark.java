package dev.canopy.bench;

import dev.canopy.collectives.internal.engine.RankBlocks;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The wire form of {@link RankBlocks}, what a gather carries up and a scatter down a tree: encode
 * and decode of one block per rank for a subtree of {@code blocks} ranks.
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RankBlocksBenchmark extends BenchmarkDefaults {

    @Param({"32", "1024"})
    int blocks;

    @Param({"1024"})
    int blockBytes;

    private RankBlocks rankBlocks;
    private Buffer wire;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(5);
        List<Buffer> byRank = new ArrayList<>(blocks);
        for (int rank = 0; rank < blocks; rank++) {
            byRank.add(SeededBuffers.bytes(random, blockBytes));
        }
        rankBlocks = RankBlocks.ofRanks(byRank);
        wire = rankBlocks.encode();
    }

    @Benchmark
    public Buffer encode() {
        return rankBlocks.encode();
    }

    @Benchmark
    public RankBlocks decode() {
        return RankBlocks.decode(wire);
    }
}
