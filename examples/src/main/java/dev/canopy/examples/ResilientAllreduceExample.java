package dev.canopy.examples;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveFailedException;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.TypedCollectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.core.comm.Communicator;
import java.io.IOException;

/**
 * Keeps computing after a member is killed, ULFM style. Every rank adds (1, its WORLD rank) into an allreduce,
 * {@value #ITERATIONS} times; the sums must be (members, sum of the members' WORLD ranks). At iteration
 * {@value #KILL_AT} WORLD rank 1 kills itself with SIGKILL. The survivors' allreduce fails naming rank 1 (its
 * connections reset, so within milliseconds), and each survivor then:
 * <ol>
 *   <li>revokes the communicator, so any survivor still inside an operation on it leaves it at once;</li>
 *   <li>agrees with the others that it is ready to go on ({@code agree}, fault tolerant);</li>
 *   <li>shrinks the communicator to the survivors and builds the collectives over it;</li>
 *   <li>resumes at the iteration every survivor has completed (a MIN allreduce over the new communicator).</li>
 * </ol>
 * Every sum is checked against the members of the communicator at the time; a barrier over the survivors ends it.
 *
 * <pre>
 * ./canopy launch --config examples/grids/two-site.rsl --class dev.canopy.examples.ResilientAllreduceExample \
 *     --classpath examples/target/classes
 * </pre>
 */
public final class ResilientAllreduceExample implements CanopyProgram {

    static final int ITERATIONS = 20;
    static final int KILL_AT = 5;
    static final int VICTIM = 1;

    @Override
    public void run(CanopySession session) {
        int worldRank = session.rank();
        Communicator communicator = session.world();
        Collectives collectives = session.collectives();
        TypedCollectives<long[]> longs = collectives.typed(ArrayType.LONGS);
        int wrong = 0;
        int iteration = 0;
        while (iteration < ITERATIONS) {
            if (iteration == KILL_AT && worldRank == VICTIM && communicator == session.world()) {
                System.out.println("rank " + worldRank + ": killing myself with SIGKILL at iteration " + iteration
                        + " (" + System.currentTimeMillis() + ")");
                killMyself();
            }
            try {
                long[] sums = Blocking.await(longs.allreduce(new long[] {1, worldRank}, BuiltInOp.SUM));
                if (sums[0] != communicator.size() || sums[1] != sumOfWorldRanks(communicator, session)) {
                    wrong++;
                }
                iteration++;
            } catch (CollectiveFailedException failure) {
                System.out.println("rank " + worldRank + ": iteration " + iteration + " failed at "
                        + System.currentTimeMillis() + ": " + failure.getMessage());
                Blocking.await(communicator.revoke());
                boolean ready = Blocking.await(communicator.agree(true));
                communicator = Blocking.await(communicator.shrink());
                collectives = new Collectives(communicator, ConfiguredPlans.of(communicator.members(), session.grid()),
                        CollectiveSettings.defaults());
                longs = collectives.typed(ArrayType.LONGS);
                // A survivor may have finished an iteration another did not: all resume at the lowest.
                iteration = (int) Blocking.await(longs.allreduce(new long[] {iteration}, BuiltInOp.MIN))[0];
                System.out.println("rank " + worldRank + ": agreed " + ready + ", shrank to " + communicator.size()
                        + " members, resuming at iteration " + iteration);
            }
        }
        // As MPI_Finalize: nobody leaves while another survivor may still wait for it (the session's own final
        // barrier is on WORLD, which is revoked). Like the session's, a failed final barrier is not an error.
        Blocking.await(collectives.barrier().otherwiseEmpty());
        System.out.println("rank " + worldRank + ": " + ITERATIONS + " iterations on " + communicator.size()
                + " members, " + (wrong == 0 ? "every sum correct" : wrong + " WRONG sums"));
    }

    private static long sumOfWorldRanks(Communicator communicator, CanopySession session) {
        return communicator.members().stream().mapToLong(member -> session.world().members().indexOf(member)).sum();
    }

    /** SIGKILL, as an operator or the OOM killer would: no shutdown hook, no goodbye, sockets reset by the kernel. */
    static void killMyself() {
        try {
            new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).inheritIO().start().waitFor();
        } catch (IOException e) {
            System.err.println("cannot run kill (" + e.getMessage() + "); halting instead");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Runtime.getRuntime().halt(137);
    }
}
