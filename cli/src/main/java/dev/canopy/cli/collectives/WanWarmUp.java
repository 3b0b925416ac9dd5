package dev.canopy.cli.collectives;

import dev.canopy.cli.collectives.WanEdges.Edge;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

/**
 * {@code canopy node --warm-wan}: at the job's start, each direction of every WAN connection the job's collective
 * trees use ({@link WanEdges}) carries one bulk flight ({@link WarmUpFlight}, sized by {@link WarmUpSizes}), all at
 * once and in the background, over a private split of WORLD (its own context: the program's messages never meet
 * these). The program starts right after the split is issued; a failed or late warm-up is logged, never fatal.
 *
 * <p>Why (docs/transport.md, "Where the 64 KB broadcast's time went"): under Linux's BBR congestion control a
 * connection paces its data at about 2.9 times the highest delivery rate it has measured. A connection that has
 * only ever carried small messages measured almost nothing, so it spreads every message larger than its initial
 * window over about half a round trip (90 to 130 ms on grid8's 220 ms hops). One flight of a few bandwidth-delay
 * products raises the estimate, and BBR keeps it over idle periods (measured: a warmed 220 ms connection still
 * sent 64 KB in about one round trip after 300 s idle), so nothing re-warms. CUBIC keeps its window over idle
 * periods only with {@code net.ipv4.tcp_slow_start_after_idle=0}; with the default 1 it restarts from the initial
 * window after about one retransmission timeout of idle (0.5 to 2 s on that link), so no re-warming could keep up
 * and the warm-up lasts until the first pause (docs/transport.md).
 */
final class WanWarmUp {

    /** A warm-up may take this long plus {@link #DEADLINE_ROUND_TRIPS} of the job's longest WAN round trip. */
    static final long BASE_DEADLINE_MS = 20_000;
    static final int DEADLINE_ROUND_TRIPS = 30;
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|.*:.*");

    /**
     * What a warm-up did at one process: the edges it sent and took flights over, their bytes, and what went wrong
     * (a vanished peer, a malformed flight, the deadline), each of which cost only the warming of that edge.
     */
    record Result(SortedSet<Edge> sent, SortedSet<Edge> received, long bytesSent, long bytesReceived,
            List<String> problems, long millis) {

        static Result failed(String problem, long millis) {
            return new Result(new TreeSet<>(), new TreeSet<>(), 0, 0, List.of(problem), millis);
        }
    }

    private WanWarmUp() {
    }

    /**
     * Why this job warms nothing, or empty when it does: {@code off}; a single site (no WAN connection); for
     * {@code auto}, every process on a loopback address (no real network between the sites: e.g. an emulated WAN).
     * The same on every process given the same setting, so all or none take part in the split.
     */
    static Optional<String> declined(WarmWanSetting setting, List<Member> members) {
        if (setting.mode() == WarmWanSetting.Mode.OFF) {
            return Optional.of("--warm-wan off");
        }
        if (members.stream().map(m -> m.coordinates().site()).distinct().count() < 2) {
            return Optional.of("every process is at one site");
        }
        if (setting.mode() == WarmWanSetting.Mode.AUTO && members.stream().allMatch(WanWarmUp::onLoopback)) {
            return Optional.of("every process is on a loopback address (give --warm-wan BYTES to warm anyway)");
        }
        return Optional.empty();
    }

    /**
     * Starts the warm-up unless {@link #declined}; call it on every process with the same setting, before the program
     * runs (its split must come before any of the program's). The future completes when this process's flights are
     * done, never with a failure.
     */
    static Future<Result> start(Communicator world, CollectivePlan plan, GridModel grid, WarmWanSetting setting) {
        WarmUpSizes sizes = new WarmUpSizes(grid, setting);
        long deadlineMs = BASE_DEADLINE_MS + Math.round(DEADLINE_ROUND_TRIPS * longestRttMs(sizes, world.members()));
        return start(world, plan, sizes, deadlineMs);
    }

    /** {@link #start(Communicator, CollectivePlan, GridModel, WarmWanSetting)} with the deadline given. */
    static Future<Result> start(Communicator world, CollectivePlan plan, WarmUpSizes sizes, long deadlineMs) {
        long started = System.nanoTime();
        return world.split(0, world.rank())
                .compose(warming -> fly(warming, plan, sizes, deadlineMs, started))
                .recover(e -> Future.succeededFuture(Result.failed(String.valueOf(e.getMessage()),
                        millisSince(started))));
    }

    private static Future<Result> fly(Communicator warming, CollectivePlan plan, WarmUpSizes sizes, long deadlineMs,
            long started) {
        Vertx vertx = warming.context().owner();
        AtomicBoolean late = new AtomicBoolean();
        // Revoking fails every pending flight of this communicator, here and at the peers, so nothing waits longer.
        long timer = vertx.setTimer(deadlineMs, id -> {
            late.set(true);
            warming.revoke();
        });
        return WanEdges.of(plan, warming.members(), warming.context())
                .compose(edges -> flights(warming, edges, sizes, started))
                .map(result -> {
                    vertx.cancelTimer(timer);
                    if (result.problems().isEmpty()) {
                        return result;
                    }
                    warming.revoke();
                    List<String> problems = new ArrayList<>(result.problems());
                    if (late.get()) {
                        problems.add(0, "not done within " + deadlineMs + " ms");
                    }
                    return new Result(result.sent(), result.received(), result.bytesSent(), result.bytesReceived(),
                            List.copyOf(problems), result.millis());
                });
    }

    private static Future<Result> flights(Communicator warming, SortedSet<Edge> edges, WarmUpSizes sizes, long started) {
        int me = warming.rank();
        List<Edge> out = edges.stream().filter(edge -> edge.from() == me).toList();
        List<Edge> in = edges.stream().filter(edge -> edge.to() == me).toList();
        List<Future<Integer>> sends = out.stream().map(edge -> {
            int bytes = sizes.bytes(site(warming, edge.from()), site(warming, edge.to()));
            return WarmUpFlight.send(warming, edge.to(), bytes).map(bytes);
        }).toList();
        List<Future<Integer>> receives = in.stream().map(edge -> WarmUpFlight.receive(warming, edge.from())).toList();
        List<Future<Integer>> all = new ArrayList<>(sends);
        all.addAll(receives);
        return Future.join(all).transform(done -> {
            SortedSet<Edge> sent = succeeded(out, sends);
            SortedSet<Edge> received = succeeded(in, receives);
            List<String> problems = all.stream().filter(Future::failed).map(f -> String.valueOf(f.cause().getMessage()))
                    .distinct().toList();
            return Future.succeededFuture(new Result(sent, received, bytes(sends), bytes(receives), problems,
                    millisSince(started)));
        });
    }

    private static SortedSet<Edge> succeeded(List<Edge> edges, List<Future<Integer>> flights) {
        SortedSet<Edge> done = new TreeSet<>();
        for (int i = 0; i < edges.size(); i++) {
            if (flights.get(i).succeeded()) {
                done.add(edges.get(i));
            }
        }
        return done;
    }

    private static long bytes(List<Future<Integer>> flights) {
        return flights.stream().filter(Future::succeeded).mapToLong(Future::result).sum();
    }

    private static double longestRttMs(WarmUpSizes sizes, List<Member> members) {
        List<String> sites = members.stream().map(m -> m.coordinates().site()).distinct().toList();
        double longest = 0;
        for (String from : sites) {
            for (String to : sites) {
                if (!from.equals(to)) {
                    longest = Math.max(longest, sizes.rttMs(from, to));
                }
            }
        }
        return longest;
    }

    private static String site(Communicator communicator, int rank) {
        return communicator.member(rank).coordinates().site();
    }

    /** Whether the member listens on a loopback address; names other than localhost are not resolved (no DNS here). */
    private static boolean onLoopback(Member member) {
        String host = member.address().host();
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (!IP_LITERAL.matcher(host).matches()) {
            return false;
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static long millisSince(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }
}
