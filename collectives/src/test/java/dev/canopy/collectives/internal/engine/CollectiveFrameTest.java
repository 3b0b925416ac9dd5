package dev.canopy.collectives.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.data.MalformedMessageException;
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
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("shorter than its 16-byte header");
        Buffer frame = CollectiveFrame.data(HEADER, Buffer.buffer());
        frame.setByte(0, (byte) 7);
        assertThatThrownBy(() -> CollectiveFrame.header(frame))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("kind 7");
        frame.setByte(0, (byte) 0).setByte(1, (byte) 200);
        assertThatThrownBy(() -> CollectiveFrame.header(frame))
                .isInstanceOf(MalformedMessageException.class).hasMessage("unknown collective operation code 200");
    }

    @Test
    void codesAreExplicitAndAtTheDocumentedOffsets() {
        Buffer frame = CollectiveFrame.data(
                new CollectiveFrame.Header(CollectiveFrame.Kind.CONTINUED, Operation.ALLTOALLV, 0xFFFE, -2, -3L),
                Buffer.buffer("x"));
        assertThat((int) frame.getUnsignedByte(CollectiveFrame.KIND_OFFSET)).isEqualTo(2);
        assertThat((int) frame.getUnsignedByte(CollectiveFrame.OPERATION_OFFSET)).isEqualTo(14);
        assertThat(frame.getUnsignedShort(CollectiveFrame.STEP_OFFSET)).isEqualTo(0xFFFE);
        assertThat(frame.getInt(CollectiveFrame.SEQUENCE_OFFSET)).isEqualTo(-2);
        assertThat(frame.getLong(CollectiveFrame.PLAN_OFFSET)).isEqualTo(-3L);
        for (Operation operation : Operation.values()) {
            assertThat(Operation.fromCode(operation.code())).isEqualTo(operation);
        }
        for (CollectiveFrame.Kind kind : CollectiveFrame.Kind.values()) {
            assertThat(CollectiveFrame.Kind.fromCode(kind.code())).isEqualTo(kind);
        }
    }

    @Test
    void abortBodiesAreCheckedAndTheirReasonsCannotForgeLogLines() {
        Buffer frame = CollectiveFrame.abort(HEADER, new CollectiveFrame.Abort(-1, 2, "line one\nFAKE LOG LINE"));
        assertThat(CollectiveFrame.abortBody(frame).reason()).isEqualTo("line one?FAKE LOG LINE");
        assertThatThrownBy(() -> CollectiveFrame.abortBody(frame.getBuffer(0, CollectiveFrame.HEADER_LENGTH + 7)))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("abort body of 7 bytes");
        assertThatThrownBy(() -> CollectiveFrame.abortBody(frame.copy().setInt(CollectiveFrame.HEADER_LENGTH, -2)))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("failed rank -2");
        Buffer overlong = frame.copy().appendBytes(new byte[CollectiveFrame.MAX_REASON_BYTES]);
        assertThatThrownBy(() -> CollectiveFrame.abortBody(overlong))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("at most 2048 bytes");
    }

    @Test
    void aLongAbortReasonIsCutWhenSent() {
        Buffer frame = CollectiveFrame.abort(HEADER, new CollectiveFrame.Abort(1, 0, "é".repeat(10_000)));
        String reason = CollectiveFrame.abortBody(frame).reason();
        assertThat(reason).endsWith("...").startsWith("éé");
        assertThat(frame.length() - CollectiveFrame.HEADER_LENGTH - 8).isLessThanOrEqualTo(CollectiveFrame.MAX_REASON_BYTES);
    }
}
