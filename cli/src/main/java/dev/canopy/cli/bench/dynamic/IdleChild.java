package dev.canopy.cli.bench.dynamic;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.dynamic.InterCommunicator;
import dev.canopy.dynamic.spawn.Parent;

/** What {@code canopy bench dynamic} spawns: connects to its parents, disconnects once they do, and ends. */
public final class IdleChild implements CanopyProgram {

    @Override
    public void run(CanopySession session) {
        InterCommunicator parents = Blocking.await(Parent.connect(session));
        Blocking.await(parents.barrier());
        Blocking.await(parents.disconnect());
    }
}
