package dev.canopy.dynamic;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.Socket;
import java.util.List;
import java.util.Locale;

/**
 * Makes the inter-communicator of {@link DynamicProcesses#join}: over the socket ({@link SocketJoin}) the two
 * processes agree on a key and a side; each binds its inter-communicator transport under that key and sends its
 * address; then, as an accept and a connect of one process each, the communicator over both starts and
 * {@link LeaderSetup}'s exchange proves they reach each other. Each process's group is itself: its collectives run
 * on a communicator split from the one over both (a join is not collective over any other group).
 */
final class Join {

    private final Vertx vertx;
    private final DynamicOptions options;
    private final Collectives local;
    private final GridModel grid;

    Join(Vertx vertx, DynamicOptions options, Collectives local, GridModel grid) {
        this.vertx = vertx;
        this.options = options;
        this.local = local;
        this.grid = grid;
    }

    Future<InterCommunicator> run(Socket socket) {
        SocketJoin exchange;
        try {
            exchange = SocketJoin.over(socket, options.timeout());
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(e);
        }
        Future<InterCommunicator> made = vertx.<Void>executeBlocking(() -> {
            exchange.agree();
            return null;
        }).compose(agreed -> Bridge.bind(vertx, options, exchange.key(), JobId.of(exchange.job()),
                label(exchange.side())))
                .compose(bridge -> connect(exchange, bridge).onFailure(e -> bridge.close("the join failed")));
        // The socket's reads end at the timeout with their own message; past twice the timeout (as accept and
        // connect), something else hangs.
        Future<InterCommunicator> bounded = Deadline.bound(vertx, made, options.timeout().multipliedBy(2),
                "join over socket " + socket);
        made.onSuccess(late -> {
            if (bounded.failed()) {
                late.free(); // made after the caller was told it failed: nobody else would free it
            }
        });
        return bounded;
    }

    private Future<InterCommunicator> connect(SocketJoin exchange, Bridge bridge) {
        Side side = exchange.side();
        Communicator world = local.communicator();
        Member self = new Member(NodeId.of(side.memberId(0)), world.member(world.rank()).coordinates(), bridge.address());
        GroupRecord mine = new GroupRecord(self.id().value() + "/" + exchange.job(), 0, List.of(self),
                options.tls().isPresent());
        return vertx.executeBlocking(() -> exchange.exchange(mine)).compose(theirs -> {
            NodeId expected = NodeId.of(side.other().memberId(0));
            if (!theirs.members().get(0).id().equals(expected)) {
                throw new InterCommunicatorException("join: the other end took the same side as this process (its"
                        + " member is " + theirs.members().get(0).id() + ", not " + expected + ")");
            }
            GroupRecord.requireSameLinks(mine, theirs);
            InterTable table = side == Side.ACCEPT ? new InterTable(mine, theirs, side, 0)
                    : new InterTable(theirs, mine, side, 0);
            int color = side.ordinal();
            return bridge.join(table.union(), table.self(), label(side))
                    .compose(union -> union.split(color, 0).compose(group -> union.split(color, 0).compose(phases -> {
                        Collectives alone = new Collectives(group, ConfiguredPlans.of(group.members(), grid),
                                local.settings());
                        return new LeaderSetup(table, union.collectiveChannel(), alone, options.interPhase(), grid).run()
                                .map(leaders -> new InterCommunicator(vertx, options, table, leaders, union, bridge, alone,
                                        new Collectives(phases, alone.plan(), local.settings()), grid));
                    })));
        });
    }

    private static String label(Side side) {
        return "join-" + side.name().toLowerCase(Locale.ROOT);
    }
}
