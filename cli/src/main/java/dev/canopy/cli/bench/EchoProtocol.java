package dev.canopy.cli.bench;

/** What the benchmark and its echo peer agree on. */
final class EchoProtocol {

    /** Frame tag: send the frame back as it is. */
    static final int TAG_ECHO = 1;
    /** Frame tag: answer with an empty ACK frame carrying this frame's sequence (a cumulative acknowledgement). */
    static final int TAG_SINK = 2;
    /** Frame tag: a streamed frame that needs no answer; a later {@link #TAG_SINK} frame acknowledges it. */
    static final int TAG_SINK_QUIET = 3;
    /** The job name of the benchmark's frames. */
    static final String JOB = "bench-p2p";
    /** First line the peer prints: {@code READY <transport tcp> <transport udp> <echo port> <sink port>}. */
    static final String READY = "READY";

    private EchoProtocol() {
    }
}
