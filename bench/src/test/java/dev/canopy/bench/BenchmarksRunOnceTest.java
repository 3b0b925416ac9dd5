package dev.canopy.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.reduce.PartialReduction;
import dev.canopy.core.internal.frame.DecodeResult;
import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.topology.internal.tree.Tree;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.buffer.Buffer;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Every benchmark, untimed: each method of JMH's own benchmark list runs once per combination of
 * its parameters through its state setup, and the results of each are checked to be the real
 * thing (a decoded frame, a correct sum, a spanning tree), so that a benchmark cannot quietly time
 * an error path.
 */
class BenchmarksRunOnceTest {

    @TestFactory
    Stream<DynamicTest> everyBenchmarkRunsOnceForEveryParameterCombination() {
        List<BenchmarkListEntry> benchmarks = new ArrayList<>(BenchmarkList.defaultList()
                .getAll(OutputFormatFactory.createFormatInstance(new PrintStream(OutputStream.nullOutputStream()), VerboseMode.SILENT), List.of()));
        assertThat(benchmarks).as("JMH's generated benchmark list").hasSizeGreaterThanOrEqualTo(12);
        return benchmarks.stream().sorted().flatMap(entry -> combinations(entry).stream().map(params ->
                DynamicTest.dynamicTest(entry.getUsername() + " " + params, () -> {
                    Class<?> benchmarkClass = Class.forName(entry.getUserClassQName());
                    String method = entry.getUsername().substring(entry.getUserClassQName().length() + 1);
                    assertThat(RunOnce.run(benchmarkClass, method, params)).isNotNull();
                })));
    }

    @Test
    void frameCodecEncodesAndDecodesTheWholeFrame() {
        FrameCodecBenchmark benchmark = new FrameCodecBenchmark();
        benchmark.payloadBytes = 65536;
        benchmark.setUp();

        assertThat(benchmark.encode().length()).isEqualTo(FrameCodec.HEADER_LENGTH + 65536);
        assertThat(benchmark.encodeHeader().length()).isEqualTo(FrameCodec.HEADER_LENGTH);
        assertThat(benchmark.decode()).isInstanceOfSatisfying(DecodeResult.Decoded.class,
                decoded -> assertThat(FrameCodec.encode(decoded.frame())).isEqualTo(benchmark.encode()));
    }

    @Test
    void streamDecoderDeliversEveryFrameOfTheSplitStream() {
        for (String payloadBytes : List.of("0", "1024", "65536")) {
            FrameStreamDecoderBenchmark benchmark = new FrameStreamDecoderBenchmark();
            benchmark.payloadBytes = Integer.parseInt(payloadBytes);
            benchmark.maxReadBytes = 16384;
            benchmark.setUp();

            assertThat(benchmark.decodeStream(RunOnce.blackhole())).as(payloadBytes + "-byte payloads")
                    .isEqualTo(FrameStreamDecoderBenchmark.FRAMES);
        }
    }

    @Test
    void reduceKernelSumEqualsThePlainArraySum() {
        for (ElementType type : List.of(ElementType.INT, ElementType.DOUBLE)) {
            ReduceKernelBenchmark benchmark = new ReduceKernelBenchmark();
            benchmark.type = type;
            benchmark.elements = 1024;
            benchmark.setUp();

            Buffer sum = benchmark.sum();
            Object plain = benchmark.plainArraySum();
            for (int i = 0; i < 1024; i++) {
                if (type == ElementType.INT) {
                    assertThat(sum.getInt(i * 4)).as("INT element " + i).isEqualTo(((int[]) plain)[i]);
                } else {
                    assertThat(sum.getDouble(i * 8)).as("DOUBLE element " + i).isEqualTo(((double[]) plain)[i]);
                }
            }
        }
    }

    @Test
    void partialReductionMergesBothRanksAndRoundTrips() {
        PartialReductionBenchmark benchmark = new PartialReductionBenchmark();
        benchmark.type = ElementType.DOUBLE;
        benchmark.elements = 1024;
        benchmark.setUp();

        PartialReduction merged = benchmark.merge();
        assertThat(merged.runs()).singleElement().satisfies(run -> {
            assertThat(run.firstRank()).isZero();
            assertThat(run.lastRank()).isEqualTo(1);
            assertThat(run.value().length()).isEqualTo(1024 * Double.BYTES);
        });
        assertThat(benchmark.decode().encode()).isEqualTo(benchmark.encode());
    }

    @Test
    void rankBlocksRoundTripEveryBlock() {
        RankBlocksBenchmark benchmark = new RankBlocksBenchmark();
        benchmark.blocks = 32;
        benchmark.blockBytes = 1024;
        benchmark.setUp();

        assertThat(benchmark.encode().length()).isEqualTo(Integer.BYTES + 32 * (2 * Integer.BYTES + 1024));
        assertThat(benchmark.decode().count()).isEqualTo(32);
        assertThat(benchmark.decode().encode()).isEqualTo(benchmark.encode());
    }

    @Test
    void everyPlannerSpansTheRealSixtyFourNodeMatrix() {
        for (TreeAlgorithm algorithm : List.of(TreeAlgorithm.HLOT, TreeAlgorithm.BINOMIAL, TreeAlgorithm.MST, TreeAlgorithm.SPT)) {
            TreeBuilderBenchmark benchmark = new TreeBuilderBenchmark();
            benchmark.algorithm = algorithm;
            benchmark.nodes = 64;
            benchmark.setUp();

            Tree tree = benchmark.build();
            assertThat(tree.size()).as(algorithm.configName()).isEqualTo(64);
            assertThat(tree.rootIndex()).isZero();
            assertThat(tree.preorder()).as(algorithm.configName() + " reaches every node").hasSize(64);
        }
    }

    /** Every combination of the entry's parameter values, in a stable order. */
    private static List<Map<String, String>> combinations(BenchmarkListEntry entry) {
        List<Map<String, String>> combinations = new ArrayList<>(List.of(Map.of()));
        Map<String, String[]> params = entry.getParams().hasValue() ? new TreeMap<>(entry.getParams().get()) : Map.of();
        for (Map.Entry<String, String[]> param : params.entrySet()) {
            List<Map<String, String>> extended = new ArrayList<>();
            for (Map<String, String> combination : combinations) {
                for (String value : param.getValue()) {
                    Map<String, String> next = new LinkedHashMap<>(combination);
                    next.put(param.getKey(), value);
                    extended.add(next);
                }
            }
            combinations = extended;
        }
        return combinations;
    }
}
