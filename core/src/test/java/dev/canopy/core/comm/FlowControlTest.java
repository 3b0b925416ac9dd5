package dev.canopy.core.comm;

import static dev.canopy.core.node.LocalJob.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.LocalJob;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Credit-based flow control between three real nodes with small limits: a 512 KiB window per peer
 * and eager messages up to 16 KiB, so every test crosses the eager/rendezvous boundary and runs out
 * of credit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FlowControlTest {

    static final MessageLimits SMALL = new MessageLimits(512 << 10, 1 << 20, 16 << 10);

    private LocalJob job;

    @BeforeAll
    void startJob() {
        job = LocalJob.start("flow", LocalJob.spreadOver(3, 1), (i, options) -> options.withMessageLimits(SMALL));
    }

    @AfterAll
    void stopJob() {
        job.close();
    }

    /** A payload of {@code size} bytes that says which message it is: its index, then a pattern derived from it. */
    static Buffer numbered(int index, int size) {
        byte[] bytes = new byte[size];
        for (int i = 4; i < size; i++) {
            bytes[i] = (byte) (index * 31 + i);
        }
        return Buffer.buffer(bytes).setInt(0, index);
    }

    /** The index of a {@link #numbered} payload, after checking its size and every byte. */
    static int indexOf(Buffer payload, int size) {
        assertThat(payload.length()).isEqualTo(size);
        int index = payload.getInt(0);
        byte[] bytes = payload.getBytes();
        for (int i = 4; i < size; i++) {
            if (bytes[i] != (byte) (index * 31 + i)) {
                throw new AssertionError("message " + index + " is damaged at byte " + i);
            }
        }
        return index;
    }

    private static int sizeOf(int index) {
        return index % 3 == 0 ? 40 << 10 : 100 + index;
    }

    private static <T> T onContext(Communicator communicator, Supplier<T> read) {
        CommunicatorRuntime runtime = ((GroupCommunicator) communicator).runtime();
        return Await.result(runtime.onContext(() -> Future.succeededFuture(read.get())), WAIT);
    }

    static CommunicatorRuntime runtimeOf(Communicator communicator) {
        return ((GroupCommunicator) communicator).runtime();
    }

    @Test
    void eagerAndRendezvousMessagesOfOneTagArriveInSendingOrder() {
        List<Future<Void>> sent = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            sent.add(job.world(0).send(1, 7, numbered(i, sizeOf(i))));
        }
        for (int i = 0; i < 60; i++) {
            Message message = Await.result(job.world(1).receive(0, 7), WAIT);
            assertThat(indexOf(message.payload(), sizeOf(i))).isEqualTo(i);
        }
        Await.result(Future.all(sent), WAIT);
    }

    @Test
    void anySourceReceivesMatchAnnouncementsInArrivalOrderPerSource() {
        Future<Message> postedBefore = job.world(0).receive(Communicator.ANY_SOURCE, Communicator.ANY_TAG);
        List<Future<Void>> sent = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            sent.add(job.world(1).send(0, 3, numbered(i, 64 << 10)));
            sent.add(job.world(2).send(0, 4, numbered(i, i % 2 == 0 ? 64 << 10 : 10)));
        }
        Map<Integer, List<Integer>> bySource = new HashMap<>();
        List<Message> received = new ArrayList<>(List.of(Await.result(postedBefore, WAIT)));
        for (int i = 1; i < 12; i++) {
            received.add(Await.result(job.world(0).receive(Communicator.ANY_SOURCE, Communicator.ANY_TAG), WAIT));
        }
        for (Message message : received) {
            assertThat(message.tag()).isEqualTo(message.source() + 2);
            int index = message.payload().getInt(0);
            int size = message.source() == 1 || index % 2 == 0 ? 64 << 10 : 10;
            bySource.computeIfAbsent(message.source(), s -> new ArrayList<>()).add(indexOf(message.payload(), size));
        }
        assertThat(bySource.get(1)).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(bySource.get(2)).containsExactly(0, 1, 2, 3, 4, 5);
        Await.result(Future.all(sent), WAIT);
    }

    @Test
    void aReceiverThatDoesNotReceiveHoldsItsSenderBackWithinItsWindow() {
        int count = 400;
        int size = 16 << 10;
        CommunicatorRuntime sender = runtimeOf(job.world(2));
        CommunicatorRuntime receiver = runtimeOf(job.world(1));
        // A first message makes the receiver top the sender's credit up to its window; then nothing
        // but this test's own sends changes the credit until the receiver receives.
        Await.result(job.world(2).send(1, 8, numbered(0, 10)), WAIT);
        Await.result(job.world(1).receive(2, 8), WAIT);
        Await.until(WAIT, () -> onContext(job.world(2), () -> sender.outbound(1).credit())
                > FlowProtocol.INITIAL_CREDIT, () -> "the receiver's first grant arrives");

        List<Future<Void>> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sent.add(job.world(2).send(1, 9, numbered(i, size)));
        }
        Await.until(WAIT, () -> onContext(job.world(2), () -> sender.outbound(1).waitingSends()) > 0,
                () -> "sends of 400 x 16 KiB to a receiver that does not receive wait for credit");
        int waiting = onContext(job.world(2), () -> sender.outbound(1).waitingSends());
        GroupCommunicator receiving = (GroupCommunicator) job.world(1);
        Await.until(WAIT, () -> onContext(receiving, receiving::queuedMessages) == count - waiting,
                () -> "all but the " + waiting + " waiting sends have arrived, eager or announced");
        long window = onContext(job.world(1), () -> receiver.inbound().window());
        long held = onContext(job.world(1), () -> receiver.inbound().held(2));
        assertThat(held).as("bytes rank 2 has queued at rank 1").isPositive().isLessThanOrEqualTo(window);
        assertThat(sent.stream().filter(Future::isComplete).count())
                .as("completed sends: no more than the window and the fetched bodies hold")
                .isLessThanOrEqualTo(window * 3 / 2 / size);
        System.out.println("flow: " + sent.stream().filter(Future::isComplete).count() + " of " + count
                + " sends of 16 KiB completed and " + waiting + " wait for credit, with " + held + " of " + window
                + " bytes held at the receiver");

        for (int i = 0; i < count; i++) {
            assertThat(indexOf(Await.result(job.world(1).receive(2, 9), WAIT).payload(), size)).isEqualTo(i);
        }
        Await.result(Future.all(sent), WAIT);
        assertThat(onContext(job.world(1), () -> receiver.inbound().held(2))).isZero();
        assertThat(onContext(job.world(1), () -> receiver.inbound().highWaterPerPeer()))
                .isLessThanOrEqualTo(window * 3 / 2);
    }

    @Test
    void bodiesBeyondTheFetchBudgetAreFetchedAheadOnceReceivesFreeRoom() {
        int count = 12;
        int size = 64 << 10;
        GroupCommunicator receiving = (GroupCommunicator) job.world(2);
        long fetchBudget = onContext(receiving, () -> runtimeOf(receiving).inbound().window()) / 2;
        int fitting = (int) (fetchBudget / size);
        List<Future<Void>> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sent.add(job.world(0).send(2, 11, numbered(i, size)));
        }
        Await.until(WAIT, () -> onContext(receiving, receiving::queuedUserPayloads) == fitting
                        && onContext(receiving, receiving::userFetchesInFlight) == 0,
                () -> "the first " + fitting + " rendezvous bodies of 64 KiB are fetched ahead of any receive");

        for (int i = 0; i < fitting; i++) {
            assertThat(indexOf(Await.result(job.world(2).receive(0, 11), WAIT).payload(), size)).isEqualTo(i);
        }
        // No receive is posted now: the next bodies come only because receiving the first ones freed fetch room.
        Await.until(WAIT, () -> onContext(receiving, receiving::queuedUserPayloads) == fitting
                        && onContext(receiving, receiving::userFetchesInFlight) == 0,
                () -> "the next " + fitting + " bodies are fetched ahead as the received ones free their room");

        for (int i = fitting; i < count; i++) {
            assertThat(indexOf(Await.result(job.world(2).receive(0, 11), WAIT).payload(), size)).isEqualTo(i);
        }
        Await.result(Future.all(sent), WAIT);
        assertThat(onContext(receiving, () -> runtimeOf(receiving).inbound().fetched(0))).isZero();
    }
}
