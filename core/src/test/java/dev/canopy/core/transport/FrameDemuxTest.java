package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.Member;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;

/**
 * Two modules share one real transport: each port receives its own family's frames and datagrams only,
 * both send through the shared transport, and closing a port leaves the transport and the other port working.
 */
class FrameDemuxTest {

    @Test
    void eachPortReceivesOnlyItsFamilysTrafficOverOneTransport() {
        try (TestNodes nodes = new TestNodes()) {
            Transport sender = nodes.start("sender");
            Transport receiver = nodes.start("receiver");
            Member to = TestNodes.member("receiver", "s", receiver);
            FrameDemux demux = new FrameDemux(receiver, () -> "s/receiver", 8 << 20, 64 << 20);
            Transport communication = demux.port(FrameFamily.COMMUNICATION);
            Transport measurement = demux.port(FrameFamily.MEASUREMENT);
            BlockingQueue<Frame> communicationFrames = new LinkedBlockingQueue<>();
            BlockingQueue<Frame> measurementFrames = new LinkedBlockingQueue<>();
            BlockingQueue<Datagram> communicationDatagrams = new LinkedBlockingQueue<>();
            BlockingQueue<Datagram> measurementDatagrams = new LinkedBlockingQueue<>();
            communication.frameHandler(communicationFrames::add);
            communication.datagramHandler(communicationDatagrams::add);
            measurement.frameHandler(measurementFrames::add);
            measurement.datagramHandler(measurementDatagrams::add);
            // Handlers are set by tasks posted to the receiver's context; a later task runs after them.
            Await.result(OwnerContext.call(receiver.context(), Future::<Void>succeededFuture));

            Await.result(sender.send(to, frame(FrameType.BANDWIDTH_PROBE, 1)));
            Await.result(sender.send(to, frame(FrameType.DATA, 2)));
            Await.result(sender.send(to, frame(FrameType.COLLECTIVE, 3)));
            Await.result(sender.sendDatagram(to, frame(FrameType.PROBE_REQUEST, 4)));

            assertThat(Await.next(measurementFrames).sequence()).isEqualTo(1);
            assertThat(Await.next(communicationFrames).sequence()).isEqualTo(2);
            assertThat(Await.next(communicationFrames).sequence()).isEqualTo(3);
            assertThat(Await.next(measurementDatagrams).frame().sequence()).isEqualTo(4);

            Await.result(measurement.close());
            Await.result(sender.send(to, frame(FrameType.PROBE_REPLY, 5)));
            Await.result(sender.send(to, frame(FrameType.CONTROL, 6)));
            assertThat(Await.next(communicationFrames).sequence()).as("communication goes on after the probes' port closed")
                    .isEqualTo(6);
            assertThat(measurementFrames).isEmpty();
            assertThat(communicationDatagrams).isEmpty();
            assertThat(measurementDatagrams).isEmpty();
        }
    }

    /** Found by CI: a peer that passed the start barrier first sent before this node's communicators existed. */
    @Test
    void communicationFramesThatArriveBeforeTheirModuleWaitForIt() {
        try (TestNodes nodes = new TestNodes()) {
            Transport sender = nodes.start("sender");
            Transport receiver = nodes.start("receiver");
            Member to = TestNodes.member("receiver", "s", receiver);
            FrameDemux demux = new FrameDemux(receiver, () -> "s/receiver", 8 << 20, 64 << 20);
            Await.result(OwnerContext.call(receiver.context(), Future::<Void>succeededFuture));

            Await.result(sender.send(to, frame(FrameType.COLLECTIVE, 1)));
            Await.result(sender.send(to, frame(FrameType.DATA, 2)));
            Await.result(sender.send(to, frame(FrameType.BANDWIDTH_PROBE, 3)));
            Await.result(sender.send(to, frame(FrameType.CONTROL, 4)));
            Await.until(() -> Await.result(OwnerContext.call(receiver.context(),
                    () -> Future.succeededFuture(demux.waitingFrames(FrameFamily.COMMUNICATION)))) == 3,
                    () -> "three communication frames waiting");
            BlockingQueue<Frame> communicationFrames = new LinkedBlockingQueue<>();
            BlockingQueue<Frame> measurementFrames = new LinkedBlockingQueue<>();
            demux.port(FrameFamily.COMMUNICATION).frameHandler(communicationFrames::add);
            demux.port(FrameFamily.MEASUREMENT).frameHandler(measurementFrames::add);

            assertThat(Await.next(communicationFrames).sequence()).isEqualTo(1);
            assertThat(Await.next(communicationFrames).sequence()).isEqualTo(2);
            assertThat(Await.next(communicationFrames).sequence()).isEqualTo(4);
            Await.result(OwnerContext.call(receiver.context(), Future::<Void>succeededFuture));
            assertThat(measurementFrames).as("a probe that found no prober is lost").isEmpty();
        }
    }

    /** The flood of the faults issue, before the module exists: bounded per sending rank and in total. */
    @Test
    void framesWaitingForTheirModuleAreBoundedInBytesPerSourceAndInTotal() {
        try (TestNodes nodes = new TestNodes()) {
            Transport sender = nodes.start("sender");
            Transport receiver = nodes.start("receiver");
            Member to = TestNodes.member("receiver", "s", receiver);
            FrameDemux demux = new FrameDemux(receiver, () -> "s/receiver", 3000, 5000);
            Await.result(OwnerContext.call(receiver.context(), Future::<Void>succeededFuture));

            for (int i = 0; i < 4; i++) {
                Await.result(sender.send(to, frame(FrameType.DATA, i, 0, 1000)));
            }
            for (int i = 4; i < 8; i++) {
                Await.result(sender.send(to, frame(FrameType.DATA, i, 2, 1000)));
            }
            Await.until(() -> Await.result(OwnerContext.call(receiver.context(),
                    () -> Future.succeededFuture(demux.droppedFrames()))) == 3,
                    () -> "one frame of source 0 (over 3000 bytes) and two of source 2 (over 5000 in all) dropped");
            BlockingQueue<Frame> communicationFrames = new LinkedBlockingQueue<>();
            demux.port(FrameFamily.COMMUNICATION).frameHandler(communicationFrames::add);
            for (long expected : new long[] {0, 1, 2, 4, 5}) {
                assertThat(Await.next(communicationFrames).sequence()).isEqualTo(expected);
            }
        }
    }

    private static Frame frame(FrameType type, long sequence, int source, int payloadBytes) {
        return new Frame(type, TestNodes.JOB, 1, 0, source, 1, 7, sequence, Buffer.buffer(new byte[payloadBytes]));
    }

    private static Frame frame(FrameType type, long sequence) {
        return new Frame(type, TestNodes.JOB, 1, 0, 0, 1, 7, sequence, Buffer.buffer("x"));
    }
}
