package dev.canopy.bench;

import dev.canopy.core.internal.frame.DecodeResult;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.transport.TransportOptions;
import io.vertx.core.buffer.Buffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One frame through {@link FrameCodec}: whole-frame encode (the UDP path), header-only encode (the
 * TCP path, which writes the payload after it) and decode of one frame held in one buffer.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FrameCodecBenchmark extends BenchmarkDefaults {

    @Param({"0", "1024", "65536"})
    int payloadBytes;

    private final int maxFrameBytes = TransportOptions.defaults().maxFrameBytes();
    private Frame frame;
    private Buffer encoded;

    @Setup
    public void setUp() {
        Buffer payload = SeededBuffers.bytes(new SplittableRandom(1), payloadBytes);
        frame = new Frame(FrameType.COLLECTIVE, Frame.jobId("bench"), 1, 0, 5, 17, 42, 1_000, payload);
        encoded = FrameCodec.encode(frame);
    }

    @Benchmark
    public Buffer encode() {
        return FrameCodec.encode(frame);
    }

    @Benchmark
    public Buffer encodeHeader() {
        return FrameCodec.encodeHeader(frame);
    }

    /** With the transport's default maximum frame, since a 64 KiB payload exceeds one UDP datagram. */
    @Benchmark
    public DecodeResult decode() {
        return FrameCodec.decodeDatagram(encoded, maxFrameBytes);
    }
}
