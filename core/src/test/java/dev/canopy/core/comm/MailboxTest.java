package dev.canopy.core.comm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.comm.Mailbox.Incoming;
import dev.canopy.core.node.NodeId;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** MPI matching rules of one channel, without sockets. */
class MailboxTest {

    private static final IntFunction<RankFailedException> ALIVE = rank -> null;

    private final Mailbox mailbox = new Mailbox(MailboxTest::takeEager);

    private static void takeEager(Incoming incoming, Promise<Message> receive) {
        receive.complete(new Message(incoming.source(), incoming.tag(), incoming.payload()));
    }

    private static Incoming message(int source, int tag, String text) {
        Buffer payload = Buffer.buffer(text);
        return Incoming.eager(source, tag, payload, FlowProtocol.eagerCost(payload.length()));
    }

    private static String text(Future<Message> future) {
        assertThat(future.succeeded()).as("receive completed").isTrue();
        return future.result().payload().toString();
    }

    @Test
    void aMessageGoesToTheEarliestPostedReceiveItMatches() {
        Future<Message> specific = mailbox.receive(1, 5, ALIVE);
        Future<Message> any = mailbox.receive(Communicator.ANY_SOURCE, Communicator.ANY_TAG, ALIVE);

        mailbox.deliver(message(2, 5, "from 2"));
        mailbox.deliver(message(1, 5, "from 1"));

        assertThat(text(any)).isEqualTo("from 2");
        assertThat(text(specific)).isEqualTo("from 1");
    }

    @Test
    void aWildcardReceiveTakesTheEarliestArrivedQueuedMessage() {
        mailbox.deliver(message(3, 9, "first"));
        mailbox.deliver(message(1, 8, "second"));
        mailbox.deliver(message(3, 8, "third"));

        assertThat(text(mailbox.receive(Communicator.ANY_SOURCE, 8, ALIVE))).isEqualTo("second");
        assertThat(text(mailbox.receive(3, Communicator.ANY_TAG, ALIVE))).isEqualTo("first");
        assertThat(text(mailbox.receive(Communicator.ANY_SOURCE, Communicator.ANY_TAG, ALIVE))).isEqualTo("third");
        assertThat(mailbox.queuedMessages()).isZero();
    }

    @Test
    void aFailedSourceFailsWaitingReceivesButItsQueuedMessagesStillArrive() {
        RankFailedException failure = new RankFailedException(4, NodeId.of("n4"), "killed");
        Future<Message> waiting = mailbox.receive(4, 1, ALIVE);
        Future<Message> anyWaiting = mailbox.receive(Communicator.ANY_SOURCE, 1, ALIVE);
        Future<Message> otherWaiting = mailbox.receive(2, 1, ALIVE);
        mailbox.sourceFailed(4, failure);
        assertThat(waiting.cause()).isSameAs(failure);
        assertThat(anyWaiting.cause()).isSameAs(failure);
        assertThat(otherWaiting.isComplete()).isFalse();

        mailbox.deliver(message(4, 2, "sent before it died"));
        IntFunction<RankFailedException> fourFailed = rank -> rank == 4 ? failure : null;
        assertThat(text(mailbox.receive(4, 2, fourFailed))).isEqualTo("sent before it died");
        assertThat(mailbox.receive(4, 2, fourFailed).cause()).isSameAs(failure);
    }

    /** Whatever the interleaving of arrivals and the order receives are made in, each (source, tag) stream stays in order. */
    @Property(tries = 300)
    void everySourceTagStreamIsReceivedInSendingOrder(
            @ForAll @Size(min = 1, max = 200) List<@IntRange(min = 0, max = 5) Integer> streams,
            @ForAll @Size(min = 1, max = 200) List<@IntRange(min = 0, max = 5) Integer> receiveOrder) {
        Map<Integer, Integer> sent = new HashMap<>();
        for (int stream : streams) {
            int sequence = sent.merge(stream, 1, Integer::sum) - 1;
            mailbox.deliver(message(stream / 2, stream % 2, Integer.toString(sequence)));
        }
        Map<Integer, List<Integer>> received = new HashMap<>();
        List<Integer> order = new ArrayList<>(receiveOrder);
        order.addAll(sent.keySet().stream().flatMap(s -> Collections.nCopies(sent.get(s), s).stream()).toList());
        for (int stream : order) {
            if (received.getOrDefault(stream, List.of()).size() < sent.getOrDefault(stream, 0)) {
                Future<Message> next = mailbox.receive(stream / 2, stream % 2, ALIVE);
                received.computeIfAbsent(stream, s -> new ArrayList<>()).add(Integer.parseInt(text(next)));
            }
        }
        sent.forEach((stream, count) -> assertThat(received.get(stream))
                .containsExactlyElementsOf(IntStream.range(0, count).boxed().toList()));
        assertThat(mailbox.queuedMessages()).isZero();
    }

    @Test
    void queuedBytesCountWhatWaitsAndDrainHandsItBackInArrivalOrder() {
        mailbox.deliver(message(1, 1, "12345"));
        mailbox.deliver(Incoming.announced(2, 1, 1 << 20, 7));
        mailbox.deliver(message(1, 2, "1"));
        assertThat(mailbox.queuedBytes()).isEqualTo(FlowProtocol.eagerCost(5) + FlowProtocol.ENVELOPE_COST
                + FlowProtocol.eagerCost(1));
        text(mailbox.receive(1, 2, ALIVE));
        assertThat(mailbox.queuedBytes()).isEqualTo(FlowProtocol.eagerCost(5) + FlowProtocol.ENVELOPE_COST);

        assertThat(mailbox.drain()).extracting(Incoming::source).containsExactly(1, 2);
        assertThat(mailbox.queuedBytes()).isZero();
        assertThat(mailbox.queuedMessages()).isZero();
    }

    @Test
    void announcementsMatchLikeMessagesSoOrderHoldsAcrossTheEagerRendezvousBoundary() {
        List<String> taken = new ArrayList<>();
        Mailbox recording = new Mailbox((incoming, receive) -> taken.add(incoming.isAnnouncement()
                ? "announced " + incoming.rendezvous() : incoming.payload().toString()));
        Future<Message> posted = recording.receive(Communicator.ANY_SOURCE, 5, ALIVE);
        recording.deliver(Incoming.announced(3, 5, 100, 1));
        recording.deliver(message(3, 5, "second"));
        recording.deliver(Incoming.announced(3, 5, 100, 3));
        recording.deliver(message(4, 5, "other source"));
        recording.receive(Communicator.ANY_SOURCE, Communicator.ANY_TAG, ALIVE);
        recording.receive(3, 5, ALIVE);
        recording.receive(Communicator.ANY_SOURCE, 5, ALIVE);

        assertThat(posted.isComplete()).as("an announcement completes its receive only when the body comes")
                .isFalse();
        assertThat(taken).containsExactly("announced 1", "second", "announced 3", "other source");
    }

    /**
     * Messages of six (source, tag) streams arrive eager or announced (some announced bodies fetched
     * while queued), and receives, specific or ANY_SOURCE/ANY_TAG, come in any order: every receive
     * gets the next message of a stream it matches, so each stream is taken in sending order.
     */
    @Property(tries = 300)
    void streamsStayInOrderWhateverMixOfEagerAnnouncedAndFetchedMessages(
            @ForAll @Size(min = 1, max = 120) List<@IntRange(min = 0, max = 17) Integer> arrivals,
            @ForAll @Size(min = 1, max = 120) List<@IntRange(min = 0, max = 7) Integer> receives) {
        // arrival a: stream a % 6; a / 6 == 0 eager, 1 announced, 2 announced and fetched at once.
        Map<Long, String> announcedBodies = new HashMap<>();
        Map<Integer, List<Integer>> taken = new HashMap<>();
        Mailbox mixed = new Mailbox((incoming, receive) -> {
            String text = incoming.isAnnouncement() ? announcedBodies.get(incoming.rendezvous())
                    : incoming.payload().toString();
            taken.computeIfAbsent(incoming.source() * 2 + incoming.tag(), k -> new ArrayList<>())
                    .add(Integer.parseInt(text));
        });
        Map<Integer, Integer> sent = new HashMap<>();
        long rendezvous = 0;
        for (int arrival : arrivals) {
            int stream = arrival % 6;
            String index = Integer.toString(sent.merge(stream, 1, Integer::sum) - 1);
            if (arrival / 6 == 0) {
                mixed.deliver(message(stream / 2, stream % 2, index));
            } else {
                announcedBodies.put(rendezvous, index);
                boolean queued = mixed.deliver(Incoming.announced(stream / 2, stream % 2, index.length(), rendezvous));
                if (arrival / 6 == 2 && queued) {
                    assertThat(mixed.fill(stream / 2, stream % 2, rendezvous, Buffer.buffer(index))).isTrue();
                }
                rendezvous++;
            }
        }
        for (int pick : receives) {
            int source = pick >= 6 ? Communicator.ANY_SOURCE : pick / 2;
            int tag = pick == 7 ? Communicator.ANY_TAG : pick % 2;
            mixed.receive(source, tag, ALIVE);
        }
        while (mixed.queuedMessages() > 0) {
            mixed.receive(Communicator.ANY_SOURCE, Communicator.ANY_TAG, ALIVE);
        }
        sent.forEach((stream, count) -> assertThat(taken.get(stream)).as("stream " + stream)
                .containsExactlyElementsOf(IntStream.range(0, count).boxed().toList()));
    }
}
