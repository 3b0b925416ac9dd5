package dev.canopy.dynamic.spawn;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.dynamic.InterCommunicator;
import io.vertx.core.buffer.Buffer;

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

    /** Tells the parents' rank 0 where its own job's transport listens, then adds 10 as {@link Ten} does. */
    public static final class ReportsItsJobAddress implements CanopyProgram {
        static final int TAG = 41;

        @Override
        public void run(CanopySession session) {
            InterCommunicator parents = awaitParents(session);
            NodeAddress job = session.node().address();
            parents.send(0, TAG, Buffer.buffer(job.host() + ":" + job.tcpPort())).toCompletionStage().toCompletableFuture()
                    .join();
            contribute(parents, session, 10);
        }
    }

    private static void contribute(CanopySession session, long value) {
        contribute(awaitParents(session), session, value);
    }

    private static void contribute(InterCommunicator parents, CanopySession session, long value) {
        long[] seen = parents.blocking(ArrayType.LONGS).allreduce(new long[] {value}, BuiltInOp.SUM);
        System.out.println("child " + session.rank() + " of " + session.size() + " saw the parents' sum " + seen[0]);
        parents.disconnect().toCompletionStage().toCompletableFuture().join();
    }

    private static InterCommunicator awaitParents(CanopySession session) {
        return Parent.connect(session).toCompletionStage().toCompletableFuture().join();
    }
}
