package dev.canopy.core.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameRouterTest {

    private static final long JOB = Frame.jobId("router");

    private static Frame frame(long job, int context, FrameType type, long sequence) {
        return new Frame(type, job, context, 0, 0, 1, 0, sequence, Buffer.buffer());
    }

    @Test
    void framesForAContextNotCreatedYetWaitAndArriveInOrderWhenItRegisters() {
        FrameRouter router = new FrameRouter(JOB, "site/host#1");
        List<Long> user = new ArrayList<>();
        List<Long> collective = new ArrayList<>();
        router.handle(frame(JOB, 7, FrameType.DATA, 1), FrameRouter.Unrouted.PARK);
        router.handle(frame(JOB, 7, FrameType.COLLECTIVE, 2), FrameRouter.Unrouted.PARK);
        router.handle(frame(JOB, 7, FrameType.DATA, 3), FrameRouter.Unrouted.PARK);

        router.register(7, FrameType.DATA, f -> user.add(f.sequence()));
        router.handle(frame(JOB, 7, FrameType.DATA, 4), FrameRouter.Unrouted.PARK);
        router.register(7, FrameType.COLLECTIVE, f -> collective.add(f.sequence()));

        assertThat(user).containsExactly(1L, 3L, 4L);
        assertThat(collective).containsExactly(2L);
    }

    @Test
    void framesOfAnotherJobAreDroppedAndAContextIdCannotBeUsedTwice() {
        FrameRouter router = new FrameRouter(JOB, "site/host#1");
        List<Frame> received = new ArrayList<>();
        router.register(3, FrameType.DATA, received::add);

        router.handle(frame(Frame.jobId("other"), 3, FrameType.DATA, 1), FrameRouter.Unrouted.PARK);

        assertThat(received).isEmpty();
        assertThatThrownBy(() -> router.register(3, FrameType.DATA, received::add))
                .hasMessageContaining("context id 3 (DATA) is already in use on this node");
    }
}
