package dev.canopy.collectives.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BufferBytesTest {

    @Test
    void aHeapBufferIsReadAndWrittenInPlace() {
        Buffer buffer = Buffer.buffer("abcdef");
        BufferBytes bytes = BufferBytes.of(buffer);

        bytes.array()[bytes.offset()] = 'X';

        assertThat(bytes.isView()).isTrue();
        assertThat(buffer.toString()).isEqualTo("Xbcdef");
    }

    @Test
    void aSliceStartsAtItsOffsetInTheSharedArray() {
        Buffer slice = Buffer.buffer("abcdef").slice(2, 5);
        BufferBytes bytes = BufferBytes.of(slice);

        assertThat(bytes.isView()).isTrue();
        assertThat(new String(bytes.array(), bytes.offset(), slice.length(), StandardCharsets.US_ASCII))
                .isEqualTo("cde");
    }

    @Test
    void directMemoryIsCopiedAndWrittenBack() {
        Buffer direct = ElementwiseKernelTest.direct(new byte[] {1, 2, 3});
        BufferBytes bytes = BufferBytes.of(direct);

        bytes.array()[bytes.offset() + 1] = 9;
        assertThat(direct.getByte(1)).isEqualTo((byte) 2);
        bytes.writeBack();

        assertThat(bytes.isView()).isFalse();
        assertThat(direct.getBytes()).containsExactly(1, 9, 3);
    }
}
