package dev.canopy.collectives.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

class CollectiveFrameTest {

    private static final CollectiveFrame.Header HEADER =
            new CollectiveFrame.Header(CollectiveFrame.Kind.DATA, Operation.ALLREDUCE, 3, 41, 9_000_000_000L);

    @Test
    void dataFrameCarriesHeaderAndBody() {
        Buffer frame = CollectiveFrame.data(HEADER, Buffer.buffer("payload"));
        assertThat(CollectiveFrame.header(frame)).isEqualTo(HEADER);
        assertThat(CollectiveFrame.body(frame).toString()).isEqualTo("payload");
        assertThat(frame.length()).isEqualTo(CollectiveFrame.HEADER_LENGTH + 7);
    }

    @Test
    void abortFrameNamesTheFailedRank() {
        Buffer frame = CollectiveFrame.abort(HEADER, new CollectiveFrame.Abort(5, 2, "rank 5 (node n5) failed: left"));
        assertThat(CollectiveFrame.header(frame).kind()).isEqualTo(CollectiveFrame.Kind.ABORT);
        assertThat(CollectiveFrame.abortBody(frame)).isEqualTo(new CollectiveFrame.Abort(5, 2, "rank 5 (node n5) failed: left"));
    }

    @Test
    void truncatedOrUnknownFramesAreRejectedWithTheReason() {
        assertThatThrownBy(() -> CollectiveFrame.header(Buffer.buffer(new byte[5])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shorter than its 16-byte header");
        Buffer frame = CollectiveFrame.data(HEADER, Buffer.buffer());
        frame.setByte(0, (byte) 7);
        assertThatThrownBy(() -> CollectiveFrame.header(frame))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kind 7");
    }
}
