package dev.canopy.cli.collectives;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.core.comm.Communicator;

/** Launched by the tests: says it waits, then waits for a message nobody sends, until the job breaks. */
public final class WaitingProgram implements CanopyProgram {

    @Override
    public void run(CanopySession session) {
        System.out.println("waiting");
        Blocking.await(session.world().receive(Communicator.ANY_SOURCE, Communicator.ANY_TAG));
        System.out.println("received a message nobody sent");
    }
}
