package dev.canopy.probes.internal.measure;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import io.vertx.core.buffer.Buffer;

/**
 * The probe frames. All use the common frame header (job, ranks, sequence); the payloads are:
 * <pre>
 *   PROBE_REQUEST   (UDP)  offset 0: int64 sender's monotonic send time, ns (big-endian); for logs only, the
 *                                    prober keeps its own record by sequence
 *   PROBE_REPLY     (UDP)  the request's payload, echoed; same sequence
 *   BANDWIDTH_PROBE (TCP)  tag {@link #TRANSFER}: {@code n} filler bytes; tag {@link #RECEIPT}: empty, same sequence,
 *                          sent back when the whole transfer has arrived
 * </pre>
 */
public final class ProbeFrames {

    public static final int SEND_TIME_OFFSET = 0;
    public static final int REQUEST_PAYLOAD_LENGTH = 8;
    /** Tag of a bandwidth transfer. */
    public static final int TRANSFER = 1;
    /** Tag of the receipt that ends a bandwidth transfer. */
    public static final int RECEIPT = 2;
    /** Probes travel outside any communicator. */
    private static final int NO_CONTEXT = 0;
    /** The frame header's reserved word. */
    private static final int RESERVED = 0;

    private ProbeFrames() {
    }

    public static Frame request(long job, int sourceRank, int destinationRank, long sequence, long sendNanos) {
        Buffer payload = Buffer.buffer(REQUEST_PAYLOAD_LENGTH).setLong(SEND_TIME_OFFSET, sendNanos);
        return new Frame(FrameType.PROBE_REQUEST, job, NO_CONTEXT, RESERVED, sourceRank, destinationRank, 0, sequence,
                payload);
    }

    /** The reply to {@code request}, from its destination back to its source. */
    public static Frame reply(Frame request) {
        return new Frame(FrameType.PROBE_REPLY, request.job(), NO_CONTEXT, RESERVED, request.destination(),
                request.source(), 0, request.sequence(), request.payload());
    }

    public static Frame transfer(long job, int sourceRank, int destinationRank, long sequence, int bytes) {
        return new Frame(FrameType.BANDWIDTH_PROBE, job, NO_CONTEXT, RESERVED, sourceRank, destinationRank, TRANSFER,
                sequence, Buffer.buffer(new byte[bytes]));
    }

    public static Frame receipt(Frame transfer) {
        return new Frame(FrameType.BANDWIDTH_PROBE, transfer.job(), NO_CONTEXT, RESERVED, transfer.destination(),
                transfer.source(), RECEIPT, transfer.sequence(), Buffer.buffer());
    }

    /** Whether a request or reply carries the payload a request is sent with. */
    public static boolean hasRequestLayout(Frame frame) {
        return frame.payload().length() == REQUEST_PAYLOAD_LENGTH;
    }

    public static boolean isProbe(FrameType type) {
        return type == FrameType.PROBE_REQUEST || type == FrameType.PROBE_REPLY || type == FrameType.BANDWIDTH_PROBE;
    }
}
