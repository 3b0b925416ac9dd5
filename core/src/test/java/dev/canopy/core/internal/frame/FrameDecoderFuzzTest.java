package dev.canopy.core.internal.frame;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.testing.fuzz.FuzzCampaign;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded mutation fuzzing of both frame decoders ({@link FuzzCampaign}): neither may throw for any
 * bytes (every problem is a {@link MalformedFrame} value), and every undamaged frame, or stream of
 * frames cut into random reads, decodes to itself.
 */
class FrameDecoderFuzzTest {

    private static final int MAX_FRAME = 4_096;

    @Test
    @Timeout(60)
    void datagramDecoder() {
        assertCampaign(datagrams().run(FuzzCampaign.DEFAULT_INPUTS));
    }

    @Test
    @Timeout(60)
    void streamDecoder() {
        assertCampaign(streams().run(FuzzCampaign.DEFAULT_INPUTS));
    }

    @Test
    @Tag("exhaustive")
    @Timeout(600)
    void datagramDecoderExhaustively() {
        assertCampaign(datagrams().run(FuzzCampaign.EXHAUSTIVE_INPUTS));
    }

    @Test
    @Tag("exhaustive")
    @Timeout(600)
    void streamDecoderExhaustively() {
        assertCampaign(streams().run(FuzzCampaign.EXHAUSTIVE_INPUTS));
    }

    private static void assertCampaign(FuzzCampaign.Outcome outcome) {
        assertThat(outcome.roundTrips()).as("valid round trips, seed %d", outcome.seed()).isPositive();
        assertThat(outcome.rejected()).as("rejected inputs, seed %d", outcome.seed()).isPositive();
    }

    private static FuzzCampaign<Frame> datagrams() {
        return FuzzCampaign.of("FrameCodec.decodeDatagram", FrameDecoderFuzzTest::randomFrame, FrameCodec::encode,
                bytes -> {
                    DecodeResult result = FrameCodec.decodeDatagram(bytes, MAX_FRAME);
                    if (result instanceof MalformedFrame malformed) {
                        throw new Rejected(malformed);
                    }
                    return ((DecodeResult.Decoded) result).frame();
                }).rejectingWith(Rejected.class);
    }

    /** Several frames as one stream, fed in reads cut at random (but reproducible) places. */
    private static FuzzCampaign<List<Frame>> streams() {
        return FuzzCampaign.<List<Frame>>of("FrameStreamDecoder", random -> {
            List<Frame> frames = new ArrayList<>();
            for (int i = 1 + random.nextInt(4); i > 0; i--) {
                frames.add(randomFrame(random));
            }
            return frames;
        }, frames -> {
            Buffer stream = Buffer.buffer();
            frames.forEach(frame -> stream.appendBuffer(FrameCodec.encode(frame)));
            return stream;
        }, FrameDecoderFuzzTest::decodeStream).rejectingWith(Rejected.class);
    }

    private static List<Frame> decodeStream(Buffer stream) {
        SplittableRandom cuts = new SplittableRandom(stream.hashCode());
        FrameStreamDecoder decoder = new FrameStreamDecoder(MAX_FRAME);
        List<Frame> decoded = new ArrayList<>();
        for (int position = 0; position < stream.length(); ) {
            int end = Math.min(stream.length(), position + 1 + cuts.nextInt(2 * FrameCodec.HEADER_LENGTH + 64));
            Optional<MalformedFrame> problem = decoder.feed(stream.getBuffer(position, end), decoded::add);
            if (problem.isPresent()) {
                throw new Rejected(problem.get());
            }
            position = end;
        }
        decoder.endOfStream().ifPresent(problem -> {
            throw new Rejected(problem);
        });
        return decoded;
    }

    private static Frame randomFrame(SplittableRandom random) {
        FrameType[] types = FrameType.values();
        int payloadLength = random.nextInt(20) == 0 ? random.nextInt(MAX_FRAME - FrameCodec.HEADER_LENGTH + 1)
                : random.nextInt(64);
        byte[] payload = new byte[payloadLength];
        random.nextBytes(payload);
        return new Frame(types[random.nextInt(types.length)], random.nextLong(), random.nextInt(), 0,
                random.nextInt(-1, 1000), random.nextInt(-1, 1000), random.nextInt(), random.nextLong(),
                Buffer.buffer(payload));
    }

    /** The test's wrapper of a {@link MalformedFrame} value, so the campaign can count it as the documented outcome. */
    private static final class Rejected extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Rejected(MalformedFrame malformed) {
            super(malformed.toString(), null, false, false);
        }
    }
}
