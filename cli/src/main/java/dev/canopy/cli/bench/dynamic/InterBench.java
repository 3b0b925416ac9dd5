package dev.canopy.cli.bench.dynamic;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.comm.Communicator;
import dev.canopy.dynamic.InterCommunicator;
import dev.canopy.dynamic.InterPhase;
import dev.canopy.dynamic.MergeOrder;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The measurements over an inter-communicator of two jobs on the emulated grid ({@link ConnectedGroups}): merge
 * latency (merge then free, merge timed, beside an allgather of the merged group), point-to-point round trips
 * inter vs intra over the same site pair, and inter-communicator collectives with the topology-aware and the flat
 * inter phase.
 */
final class InterBench {

    record Merge(int size, double meanMs, double allgatherMs) {
    }

    record P2p(String kind, int bytes, double medianUs) {
    }

    record Collective(String op, int bytes, InterPhase phase, double minMs, double avgMs, double maxMs) {
    }

    static final List<String> OPS = List.of("bcast", "reduce", "allreduce", "allgather", "alltoall", "barrier");

    private final GridModel grid;
    private final PrintWriter progress;

    InterBench(GridModel grid, PrintWriter progress) {
        this.grid = grid;
        this.progress = progress;
    }

    /**
     * {@code perSite} processes of each group at every site (fewer when the smallest site has fewer than twice that):
     * the parents the site's first ones, the children the next.
     */
    int[][] groupsAt(int wanted) {
        int perSite = Math.min(wanted, grid.sites().stream().mapToInt(each -> each.processCount() / 2).min().orElse(1));
        int sites = grid.sites().size();
        int[] parents = new int[sites * perSite];
        int[] children = new int[sites * perSite];
        int site = 0;
        int offset = 0;
        for (var each : grid.sites()) {
            for (int k = 0; k < perSite; k++) {
                parents[site * perSite + k] = offset + k;
                children[site * perSite + k] = offset + perSite + k;
            }
            offset += each.processCount();
            site++;
        }
        return new int[][] {parents, children};
    }

    /**
     * The seed's shape, children away from their parents: the parents are every process of the first half of the
     * sites (in the file's order), the children every process of the others.
     */
    int[][] groupsApart() {
        int sites = grid.sites().size();
        List<Integer> parents = new java.util.ArrayList<>();
        List<Integer> children = new java.util.ArrayList<>();
        int offset = 0;
        for (int site = 0; site < sites; site++) {
            for (int k = 0; k < grid.sites().get(site).processCount(); k++) {
                (site < (sites + 1) / 2 ? parents : children).add(offset + k);
            }
            offset += grid.sites().get(site).processCount();
        }
        return new int[][] {parents.stream().mapToInt(Integer::intValue).toArray(),
                children.stream().mapToInt(Integer::intValue).toArray()};
    }

    Merge merge(int perSite, int iterations) {
        int[][] at = groupsAt(perSite);
        try (ConnectedGroups groups = ConnectedGroups.start(grid, at[0], at[1], List.of(InterPhase.TOPOLOGY))) {
            List<InterCommunicator> all = groups.all(InterPhase.TOPOLOGY);
            int parents = groups.parents.size();
            double merges = 0;
            double allgathers = 0;
            for (int iteration = 0; iteration < iterations; iteration++) {
                List<Future<InterCommunicator.Merged>> merging = new java.util.ArrayList<>();
                double[] mergeMs = GroupTimer.time(all.size(), process -> {
                    Future<InterCommunicator.Merged> merged = all.get(process).merge(process < parents ? MergeOrder.LOW
                            : MergeOrder.HIGH);
                    merging.add(merged);
                    return merged;
                });
                List<InterCommunicator.Merged> merged = merging.stream().map(Blocking::await).toList();
                double[] allgatherMs = GroupTimer.time(merged.size(),
                        process -> merged.get(process).collectives().allgather(Buffer.buffer(new byte[8])));
                merges += max(mergeMs);
                allgathers += max(allgatherMs);
                merged.stream().map(one -> one.communicator().free()).toList().forEach(Blocking::await);
            }
            Merge row = new Merge(all.size(), merges / iterations, allgathers / iterations);
            progress.printf("merge of %d processes: %.1f ms (allgather of the merged group: %.1f ms)%n", row.size(),
                    row.meanMs(), row.allgatherMs());
            progress.flush();
            return row;
        }
    }

    /**
     * Round trips between a parent at the first site and, intra, the parent at the second site, inter, the child
     * there: the same site pair, so the difference is the inter-communicator's.
     */
    List<P2p> pointToPoint(List<Integer> sizes, int rounds) {
        int[][] at = groupsAt(1);
        try (ConnectedGroups groups = ConnectedGroups.start(grid, new int[] {at[0][0], at[0][1]},
                new int[] {at[1][0], at[1][1]}, List.of(InterPhase.TOPOLOGY))) {
            Communicator parentA = groups.parents.processes().get(0).collectives().communicator();
            Communicator parentB = groups.parents.processes().get(1).collectives().communicator();
            InterCommunicator fromParent = groups.parentSide(InterPhase.TOPOLOGY).get(0);
            InterCommunicator atChild = groups.childSide(InterPhase.TOPOLOGY).get(1);
            List<P2p> rows = new java.util.ArrayList<>();
            for (int bytes : sizes) {
                Buffer payload = Buffer.buffer(new byte[bytes]);
                double[] intra = new double[rounds];
                double[] inter = new double[rounds];
                for (int round = 0; round < rounds; round++) {
                    intra[round] = roundTrip(() -> parentA.send(1, 7, payload), () -> parentB.receive(0, 7)
                            .compose(got -> parentB.send(0, 8, got.payload())), () -> parentA.receive(1, 8));
                    inter[round] = roundTrip(() -> fromParent.send(1, 7, payload), () -> atChild.receive(0, 7)
                            .compose(got -> atChild.send(0, 8, got.payload())), () -> fromParent.receive(1, 8));
                }
                rows.add(new P2p("intra", bytes, median(intra)));
                rows.add(new P2p("inter", bytes, median(inter)));
                progress.printf("round trip of %d bytes: intra %.0f us, inter %.0f us%n", bytes, median(intra), median(inter));
                progress.flush();
            }
            return rows;
        }
    }

    private static double roundTrip(java.util.function.Supplier<Future<Void>> send,
            java.util.function.Supplier<Future<Void>> echo, java.util.function.Supplier<Future<?>> back) {
        Future<Void> echoed = echo.get();
        long started = System.nanoTime();
        Future<?> returned = back.get();
        Blocking.await(send.get());
        Blocking.await(echoed);
        Blocking.await(returned);
        return (System.nanoTime() - started) / 1e3;
    }

    /**
     * Every op at every size on the topology-aware and the flat inter-communicator between the same two jobs (same
     * processes, same JVM), taking turns: in each round both run once, the phase that goes first alternating from
     * round to round, so neither gains from a warmer JIT, a quieter moment or the other's connections. The first
     * {@code warmUps} rounds are not timed (connections on demand, trees planned, code compiled). Each run starts
     * after a barrier on its inter-communicator and is timed from one start to each process's own completion; per
     * process the median of its {@code repetitions} runs, then min/avg/max over the processes of both groups. The
     * parents are at the file's processes {@code at[0]}, the children at {@code at[1]}.
     */
    List<Collective> collectives(int[][] at, List<Integer> sizes, int warmUps, int repetitions) {
        List<InterPhase> phases = List.of(InterPhase.TOPOLOGY, InterPhase.FLAT);
        try (ConnectedGroups groups = ConnectedGroups.start(grid, at[0], at[1], phases)) {
            int parents = groups.parents.size();
            int processes = parents + groups.children.size();
            for (InterPhase phase : phases) {
                InterCommunicator parent = groups.parentSide(phase).get(0);
                InterCommunicator child = groups.childSide(phase).get(0);
                progress.printf("%s inter phase: %d + %d processes; non-rooted collectives cross between the parents' rank"
                        + " %d (%s) and the children's rank %d (%s)%n", phase, parents, processes - parents, parent.leader(),
                        siteOf(groups.parents, parent.leader()), child.leader(), siteOf(groups.children, child.leader()));
            }
            List<Collective> rows = new java.util.ArrayList<>();
            for (String op : OPS) {
                for (int bytes : op.equals("barrier") ? List.of(0) : sizes) {
                    Map<InterPhase, double[][]> runs = new EnumMap<>(InterPhase.class);
                    phases.forEach(phase -> runs.put(phase, new double[processes][repetitions]));
                    for (int round = 0; round < warmUps + repetitions; round++) {
                        for (InterPhase phase : round % 2 == 0 ? phases : List.of(phases.get(1), phases.get(0))) {
                            List<InterCommunicator> all = groups.all(phase);
                            all.stream().map(InterCommunicator::barrier).toList().forEach(Blocking::await);
                            double[] elapsed = GroupTimer.time(processes, process -> run(op, bytes, all.get(process),
                                    process, parents));
                            if (round >= warmUps) {
                                for (int process = 0; process < processes; process++) {
                                    runs.get(phase)[process][round - warmUps] = elapsed[process];
                                }
                            }
                        }
                    }
                    for (InterPhase phase : phases) {
                        double[] medians = Arrays.stream(runs.get(phase)).mapToDouble(InterBench::median).toArray();
                        rows.add(new Collective(op, bytes, phase, Arrays.stream(medians).min().orElse(0),
                                Arrays.stream(medians).average().orElse(0), max(medians)));
                    }
                    Collective topology = rows.get(rows.size() - 2);
                    Collective flat = rows.get(rows.size() - 1);
                    progress.printf(Locale.ROOT, "%-9s %7d B  topology min %.1f avg %.1f max %.1f ms  flat min %.1f avg %.1f"
                            + " max %.1f ms  topology/flat avg %.2f max %.2f%n", op, bytes, topology.minMs(), topology.avgMs(),
                            topology.maxMs(), flat.minMs(), flat.avgMs(), flat.maxMs(), topology.avgMs() / flat.avgMs(),
                            topology.maxMs() / flat.maxMs());
                    progress.flush();
                }
            }
            return rows;
        }
    }

    /** One operation at one process: rooted ones rooted at the parents' rank 0 (ROOT there, PROC_NULL at the other parents). */
    private static Future<?> run(String op, int bytes, InterCommunicator inter, int process, int parents) {
        boolean parent = process < parents;
        int root = parent ? (process == 0 ? InterCommunicator.ROOT : InterCommunicator.PROC_NULL) : 0;
        int longs = Math.max(1, bytes / Long.BYTES);
        Buffer data = Buffer.buffer(new byte[longs * Long.BYTES]);
        return switch (op) {
            case "bcast" -> inter.bcast(process == 0 ? data : null, root);
            case "reduce" -> inter.reduce(data, ElementType.LONG, BuiltInOp.SUM, root);
            case "allreduce" -> inter.allreduce(data, ElementType.LONG, BuiltInOp.SUM);
            case "allgather" -> inter.allgather(data);
            case "alltoall" -> {
                int perRank = Math.max(1, bytes / inter.remoteSize());
                yield inter.alltoall(Buffer.buffer(new byte[perRank * inter.remoteSize()]), perRank);
            }
            case "barrier" -> inter.barrier();
            default -> throw new IllegalArgumentException("no inter-communicator operation " + op);
        };
    }

    private static String siteOf(JoinedGroup group, int rank) {
        return group.processes().get(rank).node().coordinates().site();
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElse(0);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
