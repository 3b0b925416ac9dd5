package dev.canopy.collectives.soak;

import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.membership.EmbeddedZooKeeper;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.transport.emulation.GridWanEmulation;
import dev.canopy.core.transport.emulation.WanEmulationLayer;
import dev.canopy.core.transport.emulation.WanEmulator;
import dev.canopy.core.transport.fault.SeededLossLayer;
import dev.canopy.core.transport.fault.Traffic;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Every process of a level file as a real node in this JVM (embedded ZooKeeper, TCP and UDP on
 * 127.0.0.1), with the file's WAN emulated between sites (RTT and jitter) and a loss rate on every
 * link, sites and LANs alike: each datagram is dropped with that probability ({@link SeededLossLayer})
 * and each reliable frame is retransmitted after a timeout ({@link RetransmissionLayer}).
 */
final class LossyGrid implements AutoCloseable {

    private final EmbeddedZooKeeper zooKeeper;
    private final WanEmulator emulator;
    private final Vertx vertx;
    private final List<CanopyNode> nodes;
    private final List<Communicator> world;

    private LossyGrid(EmbeddedZooKeeper zooKeeper, WanEmulator emulator, Vertx vertx, List<CanopyNode> nodes,
            List<Communicator> world) {
        this.zooKeeper = zooKeeper;
        this.emulator = emulator;
        this.vertx = vertx;
        this.nodes = nodes;
        this.world = world;
    }

    /** Starts and joins every process of {@code grid}; process i's faults are seeded with {@code seed + i}. */
    static LossyGrid start(GridModel grid, String job, double loss, long retransmissionTimeoutMs, long seed,
            RetransmissionLayer.LossCounts counts) {
        EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
        WanEmulator emulator = WanEmulator.start(GridWanEmulation.of(grid));
        Vertx vertx = CanopyVertx.create();
        List<CanopyNode> nodes = new ArrayList<>();
        JobSecret secret = JobSecret.generate();
        try {
            List<Future<CanopyNode>> starting = new ArrayList<>();
            for (int index = 0; index < grid.processCount(); index++) {
                Coordinates coordinates = grid.processes().get(index).coordinates();
                long processSeed = seed + index;
                TransportStack layers = below -> new WanEmulationLayer(
                        new RetransmissionLayer(new SeededLossLayer(below, Traffic.DATAGRAMS, loss, processSeed),
                                loss, retransmissionTimeoutMs, processSeed, counts),
                        emulator, coordinates, processSeed);
                JoinOptions options = new JoinOptions(JobId.of(job), index, grid, zooKeeper.connectString(), layers, secret);
                starting.add(CanopyNode.start(vertx, options.nodeOptions()));
            }
            for (Future<CanopyNode> node : starting) {
                nodes.add(LocalGrid.await(node));
            }
            List<Future<Communicator>> joining = nodes.stream().map(CanopyNode::join).toList();
            List<Communicator> world = new ArrayList<>();
            for (Future<Communicator> communicator : joining) {
                world.add(LocalGrid.await(communicator));
            }
            world.sort(Comparator.comparingInt(Communicator::rank));
            return new LossyGrid(zooKeeper, emulator, vertx, nodes, world);
        } catch (RuntimeException e) {
            new LossyGrid(zooKeeper, emulator, vertx, nodes, List.of()).close();
            throw e;
        }
    }

    /** WORLD on every process, indexed by rank. */
    List<Communicator> world() {
        return world;
    }

    @Override
    public void close() {
        for (CanopyNode node : nodes) {
            awaitQuietly(node.close());
        }
        awaitQuietly(vertx.close());
        emulator.close();
        zooKeeper.close();
    }

    /** Waits for a closing step (at most 30 s); a failure or a timeout leaves the rest of the close to go on. */
    private static void awaitQuietly(Future<Void> closing) {
        closing.toCompletionStage().toCompletableFuture().orTimeout(30, TimeUnit.SECONDS).exceptionally(e -> null).join();
    }
}
