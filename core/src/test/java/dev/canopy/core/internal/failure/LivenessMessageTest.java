package dev.canopy.core.internal.failure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Liveness payloads round-trip, and bytes from the wire that do not fit the job are refused with the reason. */
@Timeout(10)
class LivenessMessageTest {

    @Test
    void everyKindRoundTrips() {
        for (LivenessMessage message : List.of(new LivenessMessage.Heartbeat(), new LivenessMessage.Goodbye(List.of()),
                new LivenessMessage.Goodbye(List.of(3, 1)), new LivenessMessage.Revoke(2), new LivenessMessage.Revoke(-1), new LivenessMessage.Excluded())) {
            assertThat(LivenessMessage.decode(frame(LivenessMessage.encode(message)), 4)).isEqualTo(message);
        }
    }

    @Test
    void malformedPayloadsAreRefused() {
        assertThatThrownBy(() -> LivenessMessage.decode(frame(Buffer.buffer()), 4)).hasMessageContaining("empty");
        assertThatThrownBy(() -> LivenessMessage.decode(frame(Buffer.buffer().appendByte((byte) 9)), 4))
                .hasMessageContaining("kind 9");
        assertThatThrownBy(() -> LivenessMessage.decode(frame(LivenessMessage.encode(
                new LivenessMessage.Goodbye(List.of(4)))), 4)).hasMessageContaining("world rank 4");
        assertThatThrownBy(() -> LivenessMessage.decode(frame(Buffer.buffer().appendByte((byte) 1).appendInt(1000)), 4))
                .hasMessageContaining("1000 failed members");
        assertThatThrownBy(() -> LivenessMessage.decode(frame(Buffer.buffer().appendByte((byte) 2).appendInt(-7)), 4))
                .hasMessageContaining("world rank -7");
        assertThatThrownBy(() -> LivenessMessage.decode(frame(Buffer.buffer().appendByte((byte) 2)), 4))
                .hasMessageContaining("revoke of 1 bytes");
    }

    private static Frame frame(Buffer payload) {
        return new Frame(FrameType.LIVENESS, 1, 0, 0, 0, -1, 0, 0, payload);
    }
}
