package dev.canopy.cli.bench.groups;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.internal.multicast.EmulatedGroups;
import dev.canopy.collectives.internal.multicast.GroupCollectives;
import dev.canopy.collectives.internal.multicast.GroupEndpoints;
import dev.canopy.collectives.internal.multicast.GroupRequest;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import dev.canopy.multicast.internal.groups.ManagementTimes;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * The measurements of {@code canopy bench groups} in this JVM: real nodes (embedded ZooKeeper, TCP on 127.0.0.1),
 * every member's groups leased through its own ZooKeeper session, multicast on {@code endpoints}. Root rank 0. The
 * policies take turns within each operation and size (each iteration in its own order, every policy after every
 * other alike: {@link #order}), so drift and what one call leaves behind hit them alike. One iteration: every member calls the operation, the root's call starting
 * the clock; each member's completion is stamped where its future completes; then an untimed barrier. Per
 * iteration: the whole operation (until every member returned), and the average and largest completion over the
 * receivers; medians over the iterations.
 */
final class GroupsBenchRun {

    /** Which policies each operation runs; persistent as a request initialised once per size (untimed). */
    static final List<GroupPolicy> POLICIES = List.of(GroupPolicy.DYNAMIC, GroupPolicy.STATIC, GroupPolicy.PERSISTENT,
            GroupPolicy.TREE, GroupPolicy.AUTO);
    static final List<String> OPERATIONS = List.of("scatter-1-to-5", "scatter", "scatterv", "bcast");

    /**
     * The members share one JVM and cannot fail alone, and a loaded machine starves them for seconds: the demo's
     * 30 s heartbeat timeout, and a 20 s ZooKeeper session (the embedded server allows up to 1 min).
     */
    private static final HeartbeatSettings IN_ONE_JVM = new HeartbeatSettings(Duration.ofSeconds(1),
            Duration.ofSeconds(30), HeartbeatSettings.DEFAULT_JITTER);
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(20);

    private final int members;
    private final List<Integer> sizes;
    private final int iterations;
    private final int warmup;
    private final List<String> operations;

    GroupsBenchRun(int members, List<Integer> sizes, int iterations, int warmup, List<String> operations) {
        this.members = members;
        this.sizes = sizes;
        this.iterations = iterations;
        this.warmup = warmup;
        this.operations = operations;
    }

    /** {@code {"members", "results", "management", "auto_calibrated", "auto_model"}} (the model at open, at the end). */
    JsonObject run(GroupEndpoints endpoints, MulticastOptions options, long seed) {
        GridModel grid = GridConfigs.parse("""
                +
                ( &(type = grid) (name = "bench-groups") (levels = (lan binomial) (cluster fabric_multicast)) )
                ( &(type = subjob) (label = "lan") (count = %d) )
                """.formatted(members), "bench-groups.rsl").orElseThrow();
        ManagementTimes times = new ManagementTimes();
        try (EmulatedGrid job = EmulatedGrid.start(grid, "bench-groups-" + ProcessHandle.current().pid(), seed,
                node -> node.withHeartbeat(IN_ONE_JVM).withSessionTimeout(SESSION_TIMEOUT))) {
            List<GroupCollectives> group = EmulatedGroups.open(job, grid, endpoints, options, GroupPolicy.AUTO, times);
            JsonArray results = new JsonArray();
            String model;
            try {
                for (String operation : operations) {
                    int[] targets = targetsOf(operation);
                    for (int bytes : sizes) {
                        measure(group, operation, targets, bytes, seed).forEach(results::add);
                    }
                }
                model = group.get(0).costModel().toString();
            } finally {
                EmulatedGroups.close(group);
            }
            // After the close: the static groups' destruction is in too.
            return new JsonObject().put("members", members).put("results", results).put("management", management(times))
                    .put("auto_calibrated", group.get(0).calibratedCostModel().toString()).put("auto_model", model);
        }
    }

    /** scatter-1-to-5: five receivers spread over the members; the other operations: every member but the root. */
    int[] targetsOf(String operation) {
        if (operation.equals("scatter-1-to-5")) {
            int count = Math.min(5, members - 1);
            return IntStream.range(0, count).map(i -> 1 + (int) ((long) i * (members - 1) / count)).distinct().toArray();
        }
        return IntStream.range(1, members).toArray();
    }

    private List<JsonObject> measure(List<GroupCollectives> group, String operation, int[] targets, int bytes,
            long seed) {
        // The persistent request of every member, set up once for this operation and size (not timed).
        List<GroupRequest> requests = group.stream().map(member -> init(member, operation, targets, bytes)).toList()
                .stream().map(Blocking::await).toList();
        Map<GroupPolicy, Long> choicesBefore = group.get(0).autoChoices();
        List<List<double[]>> samples = new ArrayList<>();
        POLICIES.forEach(policy -> samples.add(new ArrayList<>()));
        Buffer data = Buffer.buffer(new byte[bytes * targets.length]);
        Buffer message = Buffer.buffer(new byte[bytes]);
        List<Buffer> uneven = unevenPieces(targets.length, bytes);
        Buffer unevenData = Buffer.buffer();
        uneven.forEach(unevenData::appendBuffer);
        for (int iteration = -warmup; iteration < iterations; iteration++) {
            for (int p : order(seed, operation, bytes, iteration)) {
                GroupPolicy policy = POLICIES.get(p);
                double[] sample = once(group, member -> {
                    int rank = member.communicator().rank();
                    boolean root = rank == 0;
                    if (policy == GroupPolicy.PERSISTENT) {
                        Buffer persistentData = switch (operation) {
                            case "bcast" -> message;
                            case "scatterv" -> unevenData;
                            default -> data;
                        };
                        return requests.get(rank).start(root ? persistentData : null);
                    }
                    return switch (operation) {
                        case "bcast" -> member.bcast(0, targets, bytes, root ? message : null, policy);
                        case "scatterv" -> member.scatterv(0, targets, root ? uneven : null, policy);
                        default -> member.scatter(0, targets, bytes, root ? data : null, policy);
                    };
                }, targets);
                if (iteration >= 0) {
                    samples.get(p).add(sample);
                }
            }
        }
        requests.stream().map(GroupRequest::closeAsync).toList().forEach(Blocking::await);
        List<JsonObject> rows = new ArrayList<>();
        for (int p = 0; p < POLICIES.size(); p++) {
            rows.add(row(POLICIES.get(p), operation, bytes, samples.get(p)));
        }
        rows.get(POLICIES.indexOf(GroupPolicy.AUTO)).put("auto_choices", choices(choicesBefore,
                group.get(0).autoChoices()));
        return rows;
    }

    /**
     * The order of the policies (indexes into {@link #POLICIES}) in one iteration of a cell: every policy once, so the
     * policies of a cell are measured side by side and drift on a shared machine hits them alike. The iterations walk
     * a Williams design (the rows {@code 0, 1, n-1, 2, n-2, ...} shifted by the row number, then the same rows
     * reversed: {@code 2n} rows for an odd {@code n}), so over {@code 2n} iterations every policy comes right after every
     * other equally often (twice): what one call leaves behind (a dynamic group's teardown, a collection of its
     * buffers, a multicast's trailing acknowledgements) lands on each policy alike. (A seeded shuffle per iteration,
     * used before, left that to chance: over 13 iterations one policy could follow dynamic 7 times, another twice.)
     * Which policy plays which part is a seeded permutation per cell.
     */
    static List<Integer> order(long seed, String operation, int bytes, int iteration) {
        int n = POLICIES.size();
        List<Integer> labels = new ArrayList<>(IntStream.range(0, n).boxed().toList());
        Collections.shuffle(labels, new Random(seed * 1_000_003L + (long) operation.hashCode() * 31 + bytes * 17L));
        int rows = n % 2 == 0 ? n : 2 * n;
        int row = Math.floorMod(iteration, rows);
        List<Integer> order = new ArrayList<>(n);
        for (int j = 0; j < n; j++) {
            int first = j % 2 == 1 ? (j + 1) / 2 : (n - j / 2) % n;
            order.add(labels.get((first + row) % n));
        }
        if (row >= n) {
            Collections.reverse(order);
        }
        return order;
    }

    private static Future<GroupRequest> init(GroupCollectives member, String operation, int[] targets, int bytes) {
        return switch (operation) {
            case "bcast" -> member.bcastInit(0, targets, bytes, GroupPolicy.PERSISTENT);
            case "scatterv" -> member.scattervInit(0, targets, unevenCounts(targets.length, bytes), GroupPolicy.PERSISTENT);
            default -> member.scatterInit(0, targets, bytes, GroupPolicy.PERSISTENT);
        };
    }

    /** One iteration of every member; returns {whole ms, average receiver ms, largest receiver ms}. */
    private double[] once(List<GroupCollectives> group, Function<GroupCollectives, Future<Optional<Buffer>>> call,
            int[] targets) {
        long[] done = new long[group.size()];
        long start = System.nanoTime();
        List<Future<Optional<Buffer>>> calls = new ArrayList<>();
        for (GroupCollectives member : group) {
            int rank = member.communicator().rank();
            calls.add(call.apply(member).onComplete(finished -> done[rank] = System.nanoTime()));
        }
        calls.forEach(Blocking::await);
        double whole = (Arrays.stream(done).max().orElse(start) - start) / 1e6;
        double sum = 0;
        double largest = 0;
        for (int target : targets) {
            double ms = (done[target] - start) / 1e6;
            sum += ms;
            largest = Math.max(largest, ms);
        }
        Blocking.await(Future.all(group.stream().map(member -> member.collectives().barrier()).toList()));
        return new double[] {whole, sum / targets.length, largest};
    }

    private static JsonObject row(GroupPolicy policy, String operation, int bytes, List<double[]> samples) {
        return new JsonObject().put("policy", policy.configName()).put("operation", operation)
                .put("bytes_per_receiver", bytes)
                .put("median_ms", round(median(samples, 0)))
                .put("avg_completion_ms", round(median(samples, 1)))
                .put("max_completion_ms", round(median(samples, 2)));
    }

    /** What auto chose in this cell (warm-up included): policy name to count. */
    private static JsonObject choices(Map<GroupPolicy, Long> before, Map<GroupPolicy, Long> after) {
        JsonObject choices = new JsonObject();
        after.forEach((policy, count) -> {
            long inCell = count - before.getOrDefault(policy, 0L);
            if (inCell > 0) {
                choices.put(policy.configName(), inCell);
            }
        });
        return choices;
    }

    private static JsonArray management(ManagementTimes times) {
        JsonArray entries = new JsonArray();
        for (GroupPolicy policy : List.of(GroupPolicy.DYNAMIC, GroupPolicy.STATIC, GroupPolicy.PERSISTENT,
                GroupPolicy.TREE)) {
            ManagementTimes.Timing create = times.creation(policy);
            ManagementTimes.Timing destroy = times.destruction(policy);
            entries.add(new JsonObject().put("policy", policy.configName())
                    .put("create_ms", round(create.mean().toNanos() / 1e6))
                    .put("destroy_ms", round(destroy.mean().toNanos() / 1e6))
                    .put("creates", create.count()).put("destroys", destroy.count()));
        }
        return entries;
    }

    /** scatterv's pieces: lengths spread from half to one and a half times {@code bytes}, so the counts matter. */
    private static List<Buffer> unevenPieces(int count, int bytes) {
        return Arrays.stream(unevenCounts(count, bytes)).mapToObj(length -> Buffer.buffer(new byte[length])).toList();
    }

    static int[] unevenCounts(int count, int bytes) {
        return IntStream.range(0, count).map(i -> count == 1 ? bytes : bytes / 2 + (int) ((long) bytes * i / (count - 1)))
                .toArray();
    }

    private static double median(List<double[]> samples, int column) {
        double[] values = samples.stream().mapToDouble(sample -> sample[column]).sorted().toArray();
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
