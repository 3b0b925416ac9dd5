package dev.canopy.collectives.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.Completion;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.reference.CaseRunner;
import dev.canopy.collectives.reference.CollectiveCase;
import dev.canopy.collectives.reference.ReductionChoice;
import dev.canopy.collectives.reference.RootPosition;
import dev.canopy.collectives.reference.SizeClass;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The soak run of the faults issue: a 16-process job (4 sites of 4 in two WAN groups) runs seeded random
 * collectives for {@code -Dcanopy.soak.duration} (default 10 minutes; {@code 2m}, {@code 90s} or an ISO
 * duration such as {@code PT2M}; at most 2 hours) under 1 % loss and random delays. Every result of every
 * member is compared with the sequential reference; the heap after a full GC and the open file descriptors
 * are sampled throughout and must stay flat ({@link ResourceSamples}). Replay with {@code -Dcanopy.seed=N}
 * (the sequence of operations, sizes, roots and losses follows the seed; timing does not).
 *
 * <p>How 1 % loss is emulated without breaking the reliable transport's contract: a datagram (the UDP
 * heartbeats) is dropped with probability 0.01 ({@code SeededLossLayer}); a reliable frame, which travels
 * over TCP, is never dropped, since TCP would retransmit it: each of its 1448-byte segments is lost with
 * probability 0.01, and a frame that lost any arrives one 200 ms retransmission timeout (Linux's minimum
 * RTO) late, with every later frame to that peer waiting behind it ({@link RetransmissionLayer}), as on a
 * lossy TCP connection. The WAN emulation ({@code WanEmulationLayer}) adds the level file's RTTs between
 * sites with jitter of a half to a quarter of the RTT on every message (FIFO kept per peer). Loss applies
 * to every link, inside sites too; the level file's own {@code loss} stays 0 so datagrams are not dropped
 * twice.
 *
 * <p>All 16 nodes run in this JVM (one Vert.x, one embedded ZooKeeper): 16 JVMs (each with its own JIT,
 * Vert.x and ZooKeeper client) would take over a gigabyte and much of the two shared cores just to idle,
 * and one JVM makes "heap and fds flat" a single measurement of the whole job (every node's mailboxes,
 * channels, connections and timers). Each operation runs on WORLD or on a split of its first 11 ranks
 * (3 sites), with the configured plan and either completion mode; every wait has a 60 s deadline
 * ({@link CaseRunner}).
 */
@Tag("exhaustive")
class SoakTest {

    private static final String LEVEL_FILE = """
            +
            ( &(type = grid) (name = "soak-4x4") (default_rtt_ms = 40) )
            ( &(type = subjob) (label = "a1") (count = 4) (wan_group = "a") (site = "a1") )
            ( &(type = subjob) (label = "a2") (count = 4) (wan_group = "a") (site = "a2") )
            ( &(type = subjob) (label = "b1") (count = 4) (wan_group = "b") (site = "b1") )
            ( &(type = subjob) (label = "b2") (count = 4) (wan_group = "b") (site = "b2") )
            ( &(type = link) (between = "a1" "a2") (rtt_ms = 4) (jitter_ms = 2) )
            ( &(type = link) (between = "b1" "b2") (rtt_ms = 6) (jitter_ms = 3) )
            ( &(type = link) (between = "a1" "b1") (rtt_ms = 40) (jitter_ms = 10) )
            ( &(type = link) (between = "a1" "b2") (rtt_ms = 45) (jitter_ms = 10) )
            ( &(type = link) (between = "a2" "b1") (rtt_ms = 50) (jitter_ms = 12) )
            ( &(type = link) (between = "a2" "b2") (rtt_ms = 42) (jitter_ms = 10) )
            """;
    private static final double LOSS = 0.01;
    private static final long RETRANSMISSION_TIMEOUT_MS = 200;
    private static final Duration MAX_DURATION = Duration.ofHours(2);
    /** Largest buffer one member holds (log-uniformly drawn; one operation in ten moves no data). */
    private static final int MAX_BYTES = 256 * 1024;
    private static final int SPLIT_SIZE = 11;
    private static final double HEAP_RELATIVE_SLACK = 0.10;
    private static final long HEAP_ABSOLUTE_SLACK_BYTES = 8L << 20;
    private static final long OPEN_FILES_SLACK = 16;

    private final long seed = Long.getLong("canopy.seed", System.nanoTime());

    @Test
    @Timeout(value = 150, unit = TimeUnit.MINUTES)
    void mixedCollectivesUnderLossAndJitterStayCorrectWithFlatHeapAndFileDescriptors() {
        Duration duration = durationProperty();
        Duration sampleEvery = Duration.ofMillis(Math.max(3_000, duration.toMillis() / 40));
        System.out.println("SoakTest seed: " + seed + " (replay with -Dcanopy.seed=" + seed + "), duration " + duration
                + ", samples every " + sampleEvery.toMillis() + " ms");
        GridModel grid = GridConfigs.parse(LEVEL_FILE, "soak-4x4.rsl").orElseThrow();
        RetransmissionLayer.LossCounts losses = new RetransmissionLayer.LossCounts();
        Map<Operation, Integer> counts = new EnumMap<>(Operation.class);
        ResourceSamples samples = new ResourceSamples();
        try (EmulatedGrid job = LossyGrid.start(grid, "soak", LOSS, RETRANSMISSION_TIMEOUT_MS, seed, losses)) {
            List<List<Collectives>> communicators = List.of(collectives(job.world(), grid),
                    collectives(split(job.world()), grid));
            Random random = new Random(seed);
            long start = System.nanoTime();
            long end = start + duration.toNanos();
            long nextSample = start;
            long operations = 0;
            while (System.nanoTime() - end < 0) {
                if (System.nanoTime() - nextSample >= 0) {
                    System.out.println("SoakTest sample " + samples.take() + "  after " + operations + " operations; "
                            + losses);
                    nextSample += sampleEvery.toNanos();
                }
                List<Collectives> members = communicators.get(random.nextInt(communicators.size()));
                Completion completion = random.nextBoolean() ? Completion.AGREED : CollectiveSettings.defaults().completion();
                members = members.stream()
                        .map(m -> m.withSettings(CollectiveSettings.defaults().withCompletion(completion)))
                        .toList();
                runOne(operations, random, members, completion, counts);
                operations++;
            }
            samples.take();
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(Locale.ROOT, "SoakTest: %d operations in %.1f s (seed %d), 0 wrong results; %s; by operation %s%n",
                    operations, seconds, seed, losses, counts);
            samples.all().forEach(sample -> System.out.println("SoakTest sample " + sample));
            assertThat(operations).as("operations run, seed %d", seed).isPositive();
            assertThat(losses.delayedFrames.get()).as("frames retransmitted, seed %d", seed).isPositive();
            assertThat(samples.heapGrowth(HEAP_RELATIVE_SLACK, HEAP_ABSOLUTE_SLACK_BYTES)).as("seed %d", seed).isEmpty();
            assertThat(samples.openFilesGrowth(OPEN_FILES_SLACK)).as("seed %d", seed).isEmpty();
        }
    }

    /**
     * One seeded operation: any of the 15, on {@code members}, with a random size, root and reduction; a
     * wrong result, a failure or a missed deadline fails the run with everything needed to find it.
     */
    private void runOne(long index, Random random, List<Collectives> members, Completion completion,
            Map<Operation, Integer> counts) {
        Operation operation = Operation.values()[random.nextInt(Operation.values().length)];
        int bytes = random.nextInt(10) == 0 ? 0 : (int) Math.round(Math.exp(random.nextDouble() * Math.log(MAX_BYTES)));
        int root = random.nextInt(members.size());
        List<ReductionChoice> reductions = ReductionChoice.all();
        ReductionChoice reduction = reductions.get(random.nextInt(reductions.size()));
        CollectiveCase c = new CollectiveCase(operation, TreeAlgorithm.HLOT, members.size(), RootPosition.FIRST,
                SizeClass.SMALL, reduction, random.nextLong());
        try {
            CaseRunner.run(c, bytes, root, members);
        } catch (AssertionError e) {
            throw new AssertionError("seed " + seed + ", operation #" + index + ": " + operation.displayName() + " of "
                    + members.size() + " members, " + bytes + " bytes, root " + root + ", " + reduction + " ("
                    + completion + " completion): " + e.getMessage(), e);
        }
        counts.merge(operation, 1, Integer::sum);
    }

    /** The ranks below {@link #SPLIT_SIZE} of WORLD (sites a1, a2 and part of b1), made with split. */
    private static List<Communicator> split(List<Communicator> world) {
        List<Future<Communicator>> splits = new ArrayList<>();
        for (Communicator member : world) {
            splits.add(member.split(member.rank() < SPLIT_SIZE ? 0 : Communicator.UNDEFINED, member.rank()));
        }
        return LocalGrid.awaitAll(splits);
    }

    private static List<Collectives> collectives(List<Communicator> members, GridModel grid) {
        return members.stream()
                .map(member -> new Collectives(member, ConfiguredPlans.of(member.members(), grid), CollectiveSettings.defaults()))
                .toList();
    }

    /** {@code -Dcanopy.soak.duration}: {@code 10m}, {@code 90s}, {@code 1h} or ISO-8601 ({@code PT2M}); default 10 minutes. */
    static Duration durationProperty() {
        String text = System.getProperty("canopy.soak.duration", "10m").strip().toLowerCase(Locale.ROOT);
        Duration duration;
        try {
            if (text.startsWith("pt")) {
                duration = Duration.parse(text);
            } else {
                long amount = Long.parseLong(text.substring(0, text.length() - 1));
                duration = switch (text.charAt(text.length() - 1)) {
                    case 's' -> Duration.ofSeconds(amount);
                    case 'm' -> Duration.ofMinutes(amount);
                    case 'h' -> Duration.ofHours(amount);
                    default -> throw new IllegalArgumentException("unit must be s, m or h");
                };
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("-Dcanopy.soak.duration=" + text + " is not a duration: write e.g. 10m, "
                    + "90s, 1h or PT2M (" + e.getMessage() + ")", e);
        }
        if (duration.isNegative() || duration.isZero() || duration.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException("-Dcanopy.soak.duration=" + text + " must be above 0 and at most "
                    + MAX_DURATION + " (the test's timeout is 150 minutes)");
        }
        return duration;
    }
}
