package dev.canopy.core.internal.frame;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class FrameCodecTest {

    private static final int MAX = 1 << 20;

    @Property
    void everyFrameSurvivesEncodeAndDatagramDecode(@ForAll("frames") Frame frame) {
        DecodeResult result = FrameCodec.decodeDatagram(FrameCodec.encode(frame), MAX);

        assertThat(result).isEqualTo(new DecodeResult.Decoded(frame));
    }

    @Property
    void aStreamCutAnywhereDecodesToTheSameFrames(@ForAll @Size(min = 1, max = 8) List<@From("frames") Frame> frames,
            @ForAll @IntRange(min = 1, max = 200) int chunk) {
        Buffer stream = Buffer.buffer();
        frames.forEach(frame -> stream.appendBuffer(FrameCodec.encode(frame)));
        FrameStreamDecoder decoder = new FrameStreamDecoder(MAX);
        List<Frame> decoded = new ArrayList<>();

        for (int from = 0; from < stream.length(); from += chunk) {
            Optional<MalformedFrame> problem =
                    decoder.feed(stream.getBuffer(from, Math.min(stream.length(), from + chunk)), decoded::add);
            assertThat(problem).isEmpty();
        }

        assertThat(decoded).isEqualTo(frames);
        assertThat(decoder.endOfStream()).isEmpty();
        assertThat(decoder.bufferedBytes()).isZero();
    }

    @Example
    void aDecodedPayloadOwnsItsBytes() {
        Buffer wire = FrameCodec.encode(new Frame(FrameType.DATA, 1, 2, 0, 4, 5, 6, 7, Buffer.buffer("payload")));
        Buffer datagram = wire.copy();
        Buffer read = Buffer.buffer().appendBuffer(wire).appendBuffer(wire);
        List<Frame> fromStream = new ArrayList<>();
        new FrameStreamDecoder(MAX).feed(read, fromStream::add);
        Buffer fromDatagram = ((DecodeResult.Decoded) FrameCodec.decodeDatagram(datagram, MAX)).frame().payload();

        // Payloads this small are copied out of the read: overwrite it, then append to the payloads.
        for (int i = 0; i < read.length(); i++) {
            read.setByte(i, (byte) 'x');
        }
        datagram.setBytes(0, new byte[datagram.length()]);
        fromDatagram.appendBuffer(Buffer.buffer("!"));
        fromStream.get(1).payload().appendBuffer(Buffer.buffer("?"));

        assertThat(fromDatagram.toString()).isEqualTo("payload!");
        assertThat(fromStream).extracting(frame -> frame.payload().toString()).containsExactly("payload", "payload?");
    }

    @Example
    void aLargePayloadSpreadOverReadsIsJoinedFromThemAndMayGrow() {
        byte[] bytes = new byte[300_000];
        new Random(7).nextBytes(bytes);
        Frame large = new Frame(FrameType.DATA, 1, 2, 0, 4, 5, 6, 7, Buffer.buffer(bytes));
        Frame small = new Frame(FrameType.ACK, 1, 2, 0, 4, 5, 6, 8, Buffer.buffer("after"));
        Buffer wire = Buffer.buffer().appendBuffer(FrameCodec.encode(large)).appendBuffer(FrameCodec.encode(small));
        FrameStreamDecoder decoder = new FrameStreamDecoder(MAX);
        List<Frame> decoded = new ArrayList<>();

        for (int from = 0; from < wire.length(); from += 65_536) {
            assertThat(decoder.feed(wire.getBuffer(from, Math.min(wire.length(), from + 65_536)), decoded::add)).isEmpty();
            int fed = Math.min(wire.length(), from + 65_536);
            assertThat(decoder.bufferedBytes()).isEqualTo(fed < large.encodedLength() ? fed : 0);
        }
        Buffer payload = decoded.get(0).payload();
        payload.appendBuffer(Buffer.buffer("!"));

        assertThat(decoded).hasSize(2);
        assertThat(decoded.get(1)).isEqualTo(small);
        assertThat(payload.length()).isEqualTo(bytes.length + 1);
        assertThat(payload.getBytes(0, bytes.length)).isEqualTo(bytes);
        assertThat(payload.getByte(bytes.length)).isEqualTo((byte) '!');
    }

    @Example
    void theHeaderIsBigEndianAtTheDocumentedOffsets() {
        Frame frame = new Frame(FrameType.PROBE_REPLY, 0x0102030405060708L, 9, 0, 11, 12, 13, 0x1415161718191A1BL,
                Buffer.buffer(new byte[] {42}));
        Buffer wire = FrameCodec.encode(frame);

        assertThat(wire.length()).isEqualTo(FrameCodec.HEADER_LENGTH + 1);
        assertThat(wire.getBytes(0, 4)).containsExactly('C', 'N', 'P', 'Y');
        assertThat(wire.getByte(FrameCodec.VERSION_OFFSET)).isEqualTo((byte) 1);
        assertThat(wire.getByte(FrameCodec.TYPE_OFFSET)).isEqualTo((byte) FrameType.PROBE_REPLY.code());
        assertThat(wire.getShort(FrameCodec.RESERVED_OFFSET)).isZero();
        assertThat(wire.getBytes(FrameCodec.JOB_OFFSET, FrameCodec.JOB_OFFSET + 8)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(wire.getInt(FrameCodec.CONTEXT_OFFSET)).isEqualTo(9);
        assertThat(wire.getInt(FrameCodec.RESERVED_WORD_OFFSET)).isZero();
        assertThat(wire.getInt(FrameCodec.SOURCE_OFFSET)).isEqualTo(11);
        assertThat(wire.getInt(FrameCodec.DESTINATION_OFFSET)).isEqualTo(12);
        assertThat(wire.getInt(FrameCodec.TAG_OFFSET)).isEqualTo(13);
        assertThat(wire.getLong(FrameCodec.SEQUENCE_OFFSET)).isEqualTo(0x1415161718191A1BL);
        assertThat(wire.getInt(FrameCodec.PAYLOAD_LENGTH_OFFSET)).isEqualTo(1);
        assertThat(wire.getByte(FrameCodec.HEADER_LENGTH)).isEqualTo((byte) 42);
    }

    @Example
    void wireCodesAreStable() {
        assertThat(FrameType.values()).extracting(FrameType::code).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        assertThat(FrameType.fromCode(6)).contains(FrameType.HELLO);
        assertThat(FrameType.fromCode(0)).isEmpty();
        assertThat(FrameType.fromCode(-1)).isEmpty();
        assertThat(FrameType.fromCode(255)).isEmpty();
    }

    @Example
    void jobIdsAreStableAcrossProcesses() {
        assertThat(Frame.jobId("")).isEqualTo(0xcbf29ce484222325L);
        assertThat(Frame.jobId("a")).isEqualTo(0xaf63dc4c8601ec8cL);
        assertThat(Frame.jobId("job-1")).isNotEqualTo(Frame.jobId("job-2"));
    }

    @Example
    void eachKindOfMalformedDatagramIsNamed() {
        Buffer valid = FrameCodec.encode(new Frame(FrameType.DATA, 1, 2, 0, 4, 5, 6, 7, Buffer.buffer("payload")));

        assertThat(reason(valid.getBuffer(0, 20))).isEqualTo(MalformedFrame.Reason.TRUNCATED);
        assertThat(reason(valid.getBuffer(0, valid.length() - 1))).isEqualTo(MalformedFrame.Reason.TRUNCATED);
        assertThat(reason(valid.copy().appendByte((byte) 0))).isEqualTo(MalformedFrame.Reason.TRAILING_BYTES);
        assertThat(reason(valid.copy().setInt(FrameCodec.MAGIC_OFFSET, 0))).isEqualTo(MalformedFrame.Reason.BAD_MAGIC);
        assertThat(reason(valid.copy().setByte(FrameCodec.VERSION_OFFSET, (byte) 2))).isEqualTo(MalformedFrame.Reason.BAD_VERSION);
        assertThat(reason(valid.copy().setByte(FrameCodec.TYPE_OFFSET, (byte) 99))).isEqualTo(MalformedFrame.Reason.UNKNOWN_TYPE);
        assertThat(reason(valid.copy().setShort(FrameCodec.RESERVED_OFFSET, (short) 1))).isEqualTo(MalformedFrame.Reason.BAD_RESERVED);
        assertThat(reason(valid.copy().setInt(FrameCodec.RESERVED_WORD_OFFSET, 1))).isEqualTo(MalformedFrame.Reason.BAD_RESERVED);
        assertThat(reason(valid.copy().setInt(FrameCodec.PAYLOAD_LENGTH_OFFSET, -1))).isEqualTo(MalformedFrame.Reason.OVERSIZED);
        assertThat(reason(valid.copy().setInt(FrameCodec.PAYLOAD_LENGTH_OFFSET, MAX))).isEqualTo(MalformedFrame.Reason.OVERSIZED);
    }

    @Example
    void aStreamDecoderIsSpentAfterTheFirstProblem() {
        FrameStreamDecoder decoder = new FrameStreamDecoder(MAX);
        Buffer bad = FrameCodec.encode(new Frame(FrameType.ACK, 1, 2, 0, 4, 5, 6, 7, Buffer.buffer()))
                .setInt(FrameCodec.MAGIC_OFFSET, 1);
        List<Frame> decoded = new ArrayList<>();

        assertThat(decoder.feed(bad, decoded::add)).map(MalformedFrame::reason).contains(MalformedFrame.Reason.BAD_MAGIC);
        Buffer good = FrameCodec.encode(new Frame(FrameType.ACK, 1, 2, 0, 4, 5, 6, 7, Buffer.buffer()));
        assertThat(decoder.feed(good, decoded::add)).isPresent();
        assertThat(decoded).isEmpty();
    }

    @Example
    void aStreamEndingInsideAFrameIsTruncated() {
        FrameStreamDecoder decoder = new FrameStreamDecoder(MAX);
        Buffer frame = FrameCodec.encode(new Frame(FrameType.NAK, 1, 2, 0, 4, 5, 6, 7, Buffer.buffer("xyz")));

        assertThat(decoder.feed(frame.getBuffer(0, 50), f -> { })).isEmpty();

        assertThat(decoder.endOfStream()).map(MalformedFrame::reason).contains(MalformedFrame.Reason.TRUNCATED);
    }

    @Example
    void theFirstFrameOfAStreamMayHaveALowerLimit() {
        Buffer small = FrameCodec.encode(new Frame(FrameType.HELLO, 0, 0, 0, -1, -1, 0, 0, Buffer.buffer(new byte[100])));
        Buffer large = FrameCodec.encode(new Frame(FrameType.DATA, 1, 2, 0, 4, 5, 6, 7, Buffer.buffer(new byte[10_000])));
        List<Frame> decoded = new ArrayList<>();

        FrameStreamDecoder decoder = new FrameStreamDecoder(MAX, 200);
        assertThat(decoder.feed(Buffer.buffer().appendBuffer(small).appendBuffer(large), decoded::add)).isEmpty();
        assertThat(decoded).hasSize(2);

        FrameStreamDecoder strict = new FrameStreamDecoder(MAX, 200);
        assertThat(strict.feed(large.getBuffer(0, FrameCodec.HEADER_LENGTH), decoded::add))
                .map(MalformedFrame::reason).contains(MalformedFrame.Reason.OVERSIZED);
        assertThat(strict.bufferedBytes()).as("nothing reserved for the refused payload").isLessThanOrEqualTo(FrameCodec.HEADER_LENGTH);
    }

    private static MalformedFrame.Reason reason(Buffer datagram) {
        DecodeResult result = FrameCodec.decodeDatagram(datagram, MAX);
        assertThat(result).isInstanceOf(MalformedFrame.class);
        return ((MalformedFrame) result).reason();
    }

    @Provide
    static Arbitrary<Frame> frames() {
        Arbitrary<FrameType> types = Arbitraries.of(FrameType.class);
        Arbitrary<Buffer> payloads = Arbitraries.bytes().array(byte[].class).ofMaxSize(3000).map(Buffer::buffer);
        return Combinators.combine(types, Arbitraries.longs(), Arbitraries.integers(),
                        Arbitraries.integers().between(-1, 10_000), Arbitraries.integers().between(-1, 10_000),
                        Arbitraries.integers(), Arbitraries.longs())
                .as((type, job, context, source, destination, tag, sequence) ->
                        new Frame(type, job, context, 0, source, destination, tag, sequence, Buffer.buffer()))
                .flatMap(frame -> payloads.map(frame::withPayload));
    }
}
