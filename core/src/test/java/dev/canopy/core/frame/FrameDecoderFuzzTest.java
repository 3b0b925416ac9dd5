package dev.canopy.core.frame;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Fuzzes both decoders with random and mutated frames: at least a million per run. No exception
 * may escape, every unmutated frame must decode to itself, and a stream decoder must deliver every
 * valid frame before the first damaged one. The seed of a failing try is in jqwik's report.
 */
class FrameDecoderFuzzTest {

    private static final int TRIES = 1_000;
    private static final int FRAMES_PER_TRY = 1_000;
    private static final int MAX_FRAME = 4_096;
    private static final int[] INTERESTING = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, MAX_FRAME,
        MAX_FRAME - FrameCodec.HEADER_LENGTH, MAX_FRAME - FrameCodec.HEADER_LENGTH + 1, FrameCodec.MAGIC, 0x7F, 0x80, 0xFF};

    private static final AtomicLong FUZZED = new AtomicLong();

    @Property(tries = TRIES)
    void decodersSurviveRandomAndMutatedFrames(@ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Buffer> stream = new ArrayList<>();
        List<Frame> validPrefix = new ArrayList<>();
        boolean damaged = false;
        for (int i = 0; i < FRAMES_PER_TRY; i++) {
            Frame original = randomFrame(random);
            Buffer wire = FrameCodec.encode(original);
            Mutation mutation = Mutation.values()[random.nextInt(Mutation.values().length)];
            Buffer fuzzed = mutation.apply(wire, random);
            DecodeResult result = FrameCodec.decodeDatagram(fuzzed, MAX_FRAME);
            if (mutation == Mutation.NONE) {
                assertThat(result).as("valid frame, seed %d", seed).isEqualTo(new DecodeResult.Decoded(original));
                if (!damaged) {
                    validPrefix.add(original);
                }
            } else {
                damaged = true;
            }
            stream.add(fuzzed);
            FUZZED.incrementAndGet();
        }
        feedInRandomChunks(stream, validPrefix, random, seed);
    }

    @AfterContainer
    static void atLeastAMillionFramesWereFuzzed() {
        assertThat(FUZZED.get()).isGreaterThanOrEqualTo(1_000_000L);
    }

    private static void feedInRandomChunks(List<Buffer> frames, List<Frame> validPrefix, SplittableRandom random,
            long seed) {
        Buffer all = Buffer.buffer();
        frames.forEach(all::appendBuffer);
        FrameStreamDecoder decoder = new FrameStreamDecoder(MAX_FRAME);
        List<Frame> decoded = new ArrayList<>();
        int position = 0;
        while (position < all.length()) {
            int end = Math.min(all.length(), position + 1 + random.nextInt(2 * MAX_FRAME));
            if (decoder.feed(all.getBuffer(position, end), decoded::add).isPresent()) {
                break;
            }
            position = end;
        }
        decoder.endOfStream();
        assertThat(decoded.size()).as("frames decoded from the stream, seed %d", seed)
                .isGreaterThanOrEqualTo(validPrefix.size());
        assertThat(decoded.subList(0, validPrefix.size())).as("valid frames before the first damage, seed %d", seed)
                .isEqualTo(validPrefix);
    }

    private static Frame randomFrame(SplittableRandom random) {
        FrameType[] types = FrameType.values();
        int payloadLength = random.nextInt(10) == 0 ? random.nextInt(MAX_FRAME - FrameCodec.HEADER_LENGTH + 1)
                : random.nextInt(64);
        byte[] payload = new byte[payloadLength];
        random.nextBytes(payload);
        return new Frame(types[random.nextInt(types.length)], random.nextLong(), random.nextInt(), random.nextInt(),
                random.nextInt(-1, 1000), random.nextInt(-1, 1000), random.nextInt(), random.nextLong(),
                Buffer.buffer(payload));
    }

    /** Ways to damage an encoded frame, each as likely as the others. */
    private enum Mutation {
        NONE {
            @Override
            Buffer apply(Buffer wire, SplittableRandom random) {
                return wire;
            }
        },
        GARBAGE {
            @Override
            Buffer apply(Buffer wire, SplittableRandom random) {
                byte[] bytes = new byte[random.nextInt(2 * FrameCodec.HEADER_LENGTH)];
                random.nextBytes(bytes);
                return Buffer.buffer(bytes);
            }
        },
        FLIP_BITS {
            @Override
            Buffer apply(Buffer wire, SplittableRandom random) {
                Buffer copy = wire.copy();
                for (int flips = 1 + random.nextInt(8); flips > 0; flips--) {
                    int at = random.nextInt(copy.length());
                    copy.setByte(at, (byte) (copy.getByte(at) ^ (1 << random.nextInt(8))));
                }
                return copy;
            }
        },
        INTERESTING_HEADER_FIELD {
            @Override
            Buffer apply(Buffer wire, SplittableRandom random) {
                Buffer copy = wire.copy();
                int[] offsets = {FrameCodec.MAGIC_OFFSET, FrameCodec.VERSION_OFFSET - 3, FrameCodec.TYPE_OFFSET - 1,
                    FrameCodec.RESERVED_OFFSET - 2, FrameCodec.PAYLOAD_LENGTH_OFFSET, FrameCodec.PAYLOAD_LENGTH_OFFSET};
                copy.setInt(offsets[random.nextInt(offsets.length)], INTERESTING[random.nextInt(INTERESTING.length)]);
                return copy;
            }
        },
        TRUNCATE {
            @Override
            Buffer apply(Buffer wire, SplittableRandom random) {
                return wire.getBuffer(0, random.nextInt(wire.length()));
            }
        },
        EXTEND {
            @Override
            Buffer apply(Buffer wire, SplittableRandom random) {
                byte[] extra = new byte[1 + random.nextInt(100)];
                random.nextBytes(extra);
                return wire.copy().appendBytes(extra);
            }
        },
        SPLICE {
            @Override
            Buffer apply(Buffer wire, SplittableRandom random) {
                int cut = random.nextInt(wire.length());
                return wire.getBuffer(0, cut).appendBuffer(wire.getBuffer(random.nextInt(wire.length()), wire.length()));
            }
        };

        abstract Buffer apply(Buffer wire, SplittableRandom random);
    }
}
