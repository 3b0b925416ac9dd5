package dev.canopy.cli.bench.groups;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.internal.multicast.EmulatedGroups;
import dev.canopy.collectives.internal.multicast.GroupCollectives;
import dev.canopy.collectives.internal.multicast.GroupEndpoints;
import dev.canopy.collectives.internal.multicast.GroupRequest;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.ThreadDelayScheduler;
import dev.canopy.core.node.HeartbeatSettings;
import java.time.Duration;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import dev.canopy.multicast.internal.groups.ManagementTimes;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * A timeline of one cell of {@code canopy bench groups} (29 members, emulated-ud, the bench's set-up): per iteration
 * and member, when the command's thread dispatched its call and when its future completed, relative to the root's
 * dispatch, for a persistent start against the same bytes by the named policies and auto, taking turns. Not a test:
 * run by hand (args: bcast|scatter-1-to-5 bytes iterations policy,policy,...), e.g. {@code java -cp
 * cli/target/canopy.jar:cli/target/test-classes dev.canopy.cli.bench.groups.PersistentTimelineMain bcast 10000 40
 * static,persistent}.
 */
public final class PersistentTimelineMain {

    public static void main(String[] args) {
        String operation = args[0];
        int bytes = Integer.parseInt(args[1]);
        int iterations = Integer.parseInt(args[2]);
        List<GroupPolicy> policies = Arrays.stream(args[3].split(",")).map(name -> GroupPolicy.fromConfigName(name).orElseThrow()).toList();
        int members = 29;
        GridModel grid = GridConfigs.parse("""
                +
                ( &(type = grid) (name = "timeline") (levels = (lan binomial) (cluster fabric_multicast)) )
                ( &(type = subjob) (label = "lan") (count = %d) )
                """.formatted(members), "timeline.rsl").orElseThrow();
        ThreadDelayScheduler wire = new ThreadDelayScheduler("emulated-ud-wire");
        EmulatedUdSwitch emulated = new EmulatedUdSwitch(new EmulatedUdOptions(EmulatedUdOptions.DEFAULT_WIRE_MTU,
                EmulatedUdOptions.DEFAULT_HEADER_OVERHEAD, 0, 0, 0, 0, 0, 1), NanoClock.SYSTEM, wire);
        try (EmulatedGrid job = EmulatedGrid.start(grid, "timeline-" + ProcessHandle.current().pid(), 1,
                node -> node.withHeartbeat(new HeartbeatSettings(Duration.ofSeconds(1), Duration.ofSeconds(30),
                        HeartbeatSettings.DEFAULT_JITTER)).withSessionTimeout(Duration.ofSeconds(20)))) {
            List<GroupCollectives> group = EmulatedGroups.open(job, grid, GroupEndpoints.emulated(emulated),
                    MulticastOptions.DEFAULTS, GroupPolicy.AUTO, new ManagementTimes());
            boolean bcast = operation.equals("bcast");
            int[] targets = new GroupsBenchRun(members, List.of(bytes), 1, 0, List.of(operation)).targetsOf(operation);
            List<GroupRequest> requests = group.stream().map(member -> bcast
                    ? member.bcastInit(0, targets, bytes, GroupPolicy.PERSISTENT)
                    : member.scatterInit(0, targets, bytes, GroupPolicy.PERSISTENT)).toList().stream()
                    .map(Blocking::await).toList();
            Buffer message = Buffer.buffer(new byte[bcast ? bytes : bytes * targets.length]);
            List<List<double[][]>> samples = new ArrayList<>();
            policies.forEach(policy -> samples.add(new ArrayList<>()));
            for (int iteration = 0; iteration < iterations; iteration++) {
                for (int which = 0; which < policies.size(); which++) {
                    int p = (which + iteration) % policies.size();
                    GroupPolicy policy = policies.get(p);
                    long[] dispatched = new long[members];
                    long[] done = new long[members];
                    long start = System.nanoTime();
                    List<Future<Optional<Buffer>>> calls = new ArrayList<>();
                    for (GroupCollectives member : group) {
                        int rank = member.communicator().rank();
                        Buffer data = rank == 0 ? message : null;
                        dispatched[rank] = System.nanoTime();
                        Future<Optional<Buffer>> call = policy == GroupPolicy.PERSISTENT ? requests.get(rank).start(data)
                                : bcast ? member.bcast(0, targets, bytes, data, policy)
                                : member.scatter(0, targets, bytes, data, policy);
                        calls.add(call.onComplete(finished -> done[rank] = System.nanoTime()));
                    }
                    calls.forEach(Blocking::await);
                    Blocking.await(Future.all(group.stream().map(member -> member.collectives().barrier()).toList()));
                    double[][] sample = new double[2][members];
                    for (int rank = 0; rank < members; rank++) {
                        sample[0][rank] = (dispatched[rank] - start) / 1e3;
                        sample[1][rank] = (done[rank] - start) / 1e3;
                    }
                    if (iteration >= 3) {
                        samples.get(p).add(sample);
                    }
                }
            }
            String[] names = policies.stream().map(GroupPolicy::configName).toArray(String[]::new);
            int last = targets[targets.length - 1];
            for (int p = 0; p < policies.size(); p++) {
                List<double[][]> all = samples.get(p);
                System.out.printf("%-10s median us: last dispatch %.0f | root done %.0f | first target done %.0f |"
                                + " median target done %.0f | last target done %.0f | last done - last dispatch %.0f%n",
                        names[p], median(all, s -> s[0][members - 1]), median(all, s -> s[1][0]),
                        median(all, s -> Arrays.stream(targets).mapToDouble(t -> s[1][t]).min().orElseThrow()),
                        median(all, s -> Arrays.stream(targets).mapToDouble(t -> s[1][t]).sorted().toArray()[targets.length / 2]),
                        median(all, s -> Arrays.stream(targets).mapToDouble(t -> s[1][t]).max().orElseThrow()),
                        median(all, s -> Arrays.stream(targets).mapToDouble(t -> s[1][t]).max().orElseThrow()
                                - s[0][last]));
                System.out.printf("%-10s median us from own dispatch to own completion, targets: %s%n", names[p],
                        Arrays.toString(Arrays.stream(targets).mapToLong(t -> Math.round(median(all,
                                s -> s[1][t] - s[0][t]))).toArray()));
            }
            requests.stream().map(GroupRequest::closeAsync).toList().forEach(Blocking::await);
            EmulatedGroups.close(group);
        } finally {
            wire.close();
        }
        System.exit(0);
    }

    private static double median(List<double[][]> samples, java.util.function.ToDoubleFunction<double[][]> value) {
        double[] values = samples.stream().mapToDouble(value).sorted().toArray();
        return values[values.length / 2];
    }
}
