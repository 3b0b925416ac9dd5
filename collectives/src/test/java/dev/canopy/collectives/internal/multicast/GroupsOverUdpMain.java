package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import dev.canopy.multicast.internal.groups.ManagementTimes;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;

/**
 * Run inside a network namespace by {@link GroupsOverUdpNamespaceTest}: {@link GroupCollectives} of 5 real nodes
 * on the {@code udp} fabric (real IPv4 multicast on the namespace's interface, every group leased), every policy x
 * operation at three sizes, and persistent requests, each result compared with the root's pieces. Prints
 * {@code CHECKED n} after n comparisons, or a line starting with {@code ERROR}.
 */
public final class GroupsOverUdpMain {

    private GroupsOverUdpMain() {
    }

    public static void main(String[] args) throws Exception {
        InetAddress local = InetAddress.getByName(args[0]);
        GridModel grid = GridConfigs.parse("""
                +
                ( &(type = grid) (name = "groups-udp") (levels = (lan binomial)) )
                ( &(type = subjob) (label = "lan") (count = 5) )
                """, "groups-udp.rsl").orElseThrow();
        Random random = new Random(Long.parseLong(args[1]));
        int checked = 0;
        try (EmulatedGrid job = EmulatedGrid.start(grid, "groups-udp", 1)) {
            List<GroupCollectives> members = EmulatedGroups.open(job, grid, GroupEndpoints.udp(local),
                    MulticastOptions.DEFAULTS, GroupPolicy.AUTO, new ManagementTimes());
            try {
                int[] targets = {1, 3, 4};
                for (GroupPolicy policy : new GroupPolicy[] {GroupPolicy.STATIC, GroupPolicy.DYNAMIC, GroupPolicy.TREE,
                        GroupPolicy.AUTO}) {
                    for (int bytes : new int[] {0, 100, 20_000}) {
                        List<Buffer> pieces = new ArrayList<>();
                        Buffer all = Buffer.buffer();
                        for (int i = 0; i < targets.length; i++) {
                            pieces.add(random(random, bytes));
                            all.appendBuffer(pieces.get(i));
                        }
                        checked += check(all(members, member -> member.scatter(0, targets, bytes,
                                member.communicator().rank() == 0 ? all : null, policy)), targets, pieces);
                        checked += check(all(members, member -> member.scatterv(2, new int[] {0, 4},
                                member.communicator().rank() == 2 ? pieces.subList(0, 2) : null, policy)),
                                new int[] {0, 4}, pieces.subList(0, 2));
                    }
                }
                List<GroupRequest> requests = all(members, member -> member.scattervInit(0, targets, new int[] {5, 900, 0},
                        GroupPolicy.PERSISTENT));
                for (int start = 0; start < 10; start++) {
                    List<Buffer> pieces = List.of(random(random, 5), random(random, 900), Buffer.buffer());
                    Buffer all = Buffer.buffer().appendBuffer(pieces.get(0)).appendBuffer(pieces.get(1));
                    List<Future<Optional<Buffer>>> started = new ArrayList<>();
                    for (int rank = 0; rank < members.size(); rank++) {
                        started.add(requests.get(rank).start(rank == 0 ? all : null));
                    }
                    checked += check(started.stream().map(Blocking::await).toList(), targets, pieces);
                }
                requests.stream().map(GroupRequest::closeAsync).toList().forEach(Blocking::await);
            } finally {
                EmulatedGroups.close(members);
            }
            System.out.println("CHECKED " + checked);
        } catch (RuntimeException | AssertionError e) {
            System.out.println("ERROR " + e);
            e.printStackTrace(System.out);
        }
        System.out.flush();
        System.exit(0);
    }

    private static <T> List<T> all(List<GroupCollectives> members, Function<GroupCollectives, Future<T>> call) {
        return members.stream().map(call).toList().stream().map(Blocking::await).toList();
    }

    /** Target i got pieces[i], the others nothing; returns how many members were compared. */
    private static int check(List<Optional<Buffer>> got, int[] targets, List<Buffer> pieces) {
        for (int rank = 0; rank < got.size(); rank++) {
            int index = Arrays.binarySearch(targets, rank);
            boolean right = index >= 0
                    ? got.get(rank).isPresent() && Arrays.equals(got.get(rank).get().getBytes(), pieces.get(index).getBytes())
                    : got.get(rank).isEmpty();
            if (!right) {
                throw new AssertionError("rank " + rank + " got " + got.get(rank).map(Buffer::length).map(n -> n + " bytes")
                        .orElse("nothing") + ", targets " + Arrays.toString(targets));
            }
        }
        return got.size();
    }

    private static Buffer random(Random random, int bytes) {
        byte[] data = new byte[bytes];
        random.nextBytes(data);
        return Buffer.buffer(data);
    }
}
