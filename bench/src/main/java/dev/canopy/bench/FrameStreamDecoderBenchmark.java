package dev.canopy.bench;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.frame.FrameStreamDecoder;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.internal.frame.MalformedFrame;
import dev.canopy.core.transport.TransportOptions;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A TCP stream of {@value #FRAMES} frames cut into reads at seeded random boundaries (1 byte up to
 * {@code maxReadBytes}), fed to a fresh {@link FrameStreamDecoder}: frames whole inside one read,
 * frames spread over reads and headers split across reads all occur. Scores are per frame.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FrameStreamDecoderBenchmark extends BenchmarkDefaults {

    static final int FRAMES = 64;

    @Param({"0", "1024", "65536"})
    int payloadBytes;

    /** The largest read; Netty's adaptive allocator reads at most 64 KiB, typically a few KiB. */
    @Param({"16384"})
    int maxReadBytes;

    private final int maxFrameBytes = TransportOptions.defaults().maxFrameBytes();
    private List<Buffer> reads;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(2);
        Buffer stream = Buffer.buffer();
        for (int sequence = 0; sequence < FRAMES; sequence++) {
            stream.appendBuffer(FrameCodec.encode(new Frame(FrameType.DATA, Frame.jobId("bench"), 1, 0, 5, 17, 42, sequence,
                    SeededBuffers.bytes(random, payloadBytes))));
        }
        reads = new ArrayList<>();
        for (int start = 0; start < stream.length(); ) {
            int end = Math.min(stream.length(), start + 1 + random.nextInt(maxReadBytes));
            reads.add(stream.getBuffer(start, end));
            start = end;
        }
    }

    /** @return the frames decoded, {@value #FRAMES} unless the stream was malformed */
    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public int decodeStream(Blackhole blackhole) {
        FrameStreamDecoder decoder = new FrameStreamDecoder(maxFrameBytes);
        int[] decoded = {0};
        for (Buffer read : reads) {
            Optional<MalformedFrame> problem = decoder.feed(read, frame -> {
                decoded[0]++;
                blackhole.consume(frame);
            });
            if (problem.isPresent()) {
                throw new IllegalStateException("benchmark stream is malformed: " + problem.get());
            }
        }
        return decoded[0];
    }
}
