package dev.canopy.collectives.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.Blocking;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.Message;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nodes of an emulated grid run side by side as separate processes would: each on a context of its own, spread
 * over the Vert.x event-loop pool. Started from the test's thread with {@code CanopyNode.start}, they had contexts of
 * their own too, but Vert.x 5 put every one of them on that thread's one event loop ({@code vert.x-eventloop-thread-0}).
 */
class EmulatedGridEventLoopsTest {

    private static final int RING_TAG = 7;
    private static final Logger LOG = LoggerFactory.getLogger(EmulatedGridEventLoopsTest.class);
    private static final String SIX_NODES = """
            +
            ( &(type = grid) (name = "loops") (default_rtt_ms = 2) (levels = (heavy_wan hlot) (lan binomial)) )
            ( &(type = subjob) (label = "a") (count = 3) (wan_group = "a") (site = "a") )
            ( &(type = subjob) (label = "b") (count = 3) (wan_group = "b") (site = "b") )
            """;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyNodeHasItsOwnContextAndTheNodesShareTheEventLoopPool() {
        GridModel grid = GridConfigs.parse(SIX_NODES, "loops.rsl").orElseThrow();
        try (EmulatedGrid job = EmulatedGrid.start(grid, "loops-" + ProcessHandle.current().pid(), 1)) {
            List<CanopyNode> nodes = job.nodes();
            Set<Context> contexts = new HashSet<>();
            Set<String> threads = new HashSet<>();
            for (CanopyNode node : nodes) {
                String thread = Blocking.await(threadOf(node.context()));
                LOG.info("{} runs on context {} thread {}", node.label(), node.context(), thread);
                contexts.add(node.context());
                threads.add(thread);
            }
            assertThat(contexts).as("one context per node").hasSize(nodes.size());
            // The default pool has 2 event loops per core: six nodes take at least two of them on any machine.
            assertThat(threads).as("event-loop threads the nodes run on").hasSizeGreaterThan(1)
                    .allMatch(name -> name.startsWith("vert.x-eventloop-thread-"));
            // And they still talk to each other: a ring of messages across the loops.
            List<Communicator> world = job.world();
            List<Future<Message>> received = world.stream().map(rank -> rank.receive(
                    (rank.rank() + world.size() - 1) % world.size(), RING_TAG)).toList();
            world.forEach(rank -> rank.send((rank.rank() + 1) % world.size(), RING_TAG,
                    Buffer.buffer().appendInt(rank.rank())));
            for (int rank = 0; rank < world.size(); rank++) {
                assertThat(Blocking.await(received.get(rank)).payload().getInt(0))
                        .isEqualTo((rank + world.size() - 1) % world.size());
            }
        }
    }

    private static Future<String> threadOf(Context context) {
        Promise<String> name = Promise.promise();
        context.runOnContext(v -> name.complete(Thread.currentThread().getName()));
        return name.future();
    }
}
