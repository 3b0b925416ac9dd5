package dev.canopy.collectives.run;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.BlockingCollectives;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Vertx;

/**
 * A process's membership in a running job: WORLD, the collectives over it (following the level
 * file's plan) and blocking views for MPI-style code. {@link #close()} finishes with the others and
 * leaves the job; {@link #leave()} leaves at once.
 */
public final class CanopySession implements AutoCloseable {

    private final Vertx vertx;
    private final CanopyNode node;
    private final Communicator world;
    private final GridModel grid;
    private final Collectives collectives;

    CanopySession(Vertx vertx, CanopyNode node, Communicator world, GridModel grid, CollectiveSettings settings) {
        this.vertx = vertx;
        this.node = node;
        this.world = world;
        this.grid = grid;
        this.collectives = new Collectives(world, ConfiguredPlans.of(world.members(), grid), settings);
    }

    public Communicator world() {
        return world;
    }

    public int rank() {
        return world.rank();
    }

    public int size() {
        return world.size();
    }

    public GridModel grid() {
        return grid;
    }

    /** The asynchronous collectives over WORLD. */
    public Collectives collectives() {
        return collectives;
    }

    /** Blocking collectives over WORLD on arrays of {@code type}, e.g. {@code session.blocking(ArrayType.DOUBLES)}. */
    public <A> BlockingCollectives<A> blocking(ArrayType<A> type) {
        return new BlockingCollectives<>(collectives, type);
    }

    /** How log lines name this process: {@code site/host#rank}. */
    public String label() {
        return node.label();
    }

    /**
     * Finishes like {@code MPI_Finalize}: a barrier with every member, so no member leaves while another
     * still waits for a message from it, then leaves the job and stops this process's event loops.
     * Blocks until done. A failed barrier (a member died) does not keep this member from leaving.
     */
    @Override
    public void close() {
        Blocking.await(collectives.barrier().transform(finished -> node.close()).eventually(() -> vertx.close()));
    }

    /** Leaves the job at once, without waiting for the others (after a failure); blocks until done. */
    public void leave() {
        Blocking.await(node.close().eventually(() -> vertx.close()));
    }
}
