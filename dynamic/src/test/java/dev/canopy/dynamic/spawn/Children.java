package dev.canopy.dynamic.spawn;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.dynamic.InterCommunicator;

/** The programs the tests spawn; each connects to its parents first. */
final class Children {

    private Children() {
    }

    /** Adds 10 to the parents' inter-communicator allreduce, then disconnects. */
    public static final class Ten implements CanopyProgram {
        @Override
        public void run(CanopySession session) {
            contribute(session, 10);
        }
    }

    /** Adds 100 to the parents' inter-communicator allreduce, then disconnects. */
    public static final class Hundred implements CanopyProgram {
        @Override
        public void run(CanopySession session) {
            contribute(session, 100);
        }
    }

    /** Connects, then dies at once without a goodbye (as a crash would). */
    public static final class DieAfterConnecting implements CanopyProgram {
        @Override
        public void run(CanopySession session) {
            awaitParents(session);
            System.out.println("child " + session.rank() + " connected; dying");
            Runtime.getRuntime().halt(9);
        }
    }

    private static void contribute(CanopySession session, long value) {
        InterCommunicator parents = awaitParents(session);
        long[] seen = parents.blocking(ArrayType.LONGS).allreduce(new long[] {value}, BuiltInOp.SUM);
        System.out.println("child " + session.rank() + " of " + session.size() + " saw the parents' sum " + seen[0]);
        parents.disconnect().toCompletionStage().toCompletableFuture().join();
    }

    private static InterCommunicator awaitParents(CanopySession session) {
        return Parent.connect(session).toCompletionStage().toCompletableFuture().join();
    }
}
