package dev.canopy.core.internal.frame;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class BufferChainTest {

    @Test
    void theChainReadsThePartsBackToBackAndGrowsWithoutChangingThem() {
        Buffer first = Buffer.buffer("head");
        Buffer whole = Buffer.buffer("--body--");
        Buffer slice = whole.slice(2, 6);

        Buffer chain = BufferChain.of(List.of(first, Buffer.buffer(), slice));
        chain.appendBuffer(Buffer.buffer("+tail"));

        assertThat(chain.toString()).isEqualTo("headbody+tail");
        assertThat(chain.getInt(0)).isEqualTo(first.getInt(0));
        assertThat(first.toString()).isEqualTo("head");
        assertThat(whole.toString()).isEqualTo("--body--");
        assertThat(chain).isEqualTo(Buffer.buffer("headbody+tail"));
    }
}
