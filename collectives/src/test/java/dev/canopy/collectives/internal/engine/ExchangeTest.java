package dev.canopy.collectives.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.core.comm.Communicator;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Bodies between two real nodes: whole, in buffers the receiver owns, however many frames they took. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExchangeTest {

    private final AtomicInteger sequence = new AtomicInteger();
    private LocalGrid grid;

    @BeforeAll
    void startGrid() {
        grid = LocalGrid.start("exchange", 2);
    }

    @AfterAll
    void stopGrid() {
        grid.close();
    }

    @Test
    void aBodyAboveTheChunkSizeArrivesWholeAndCanGrow() {
        Buffer body = randomBytes(2 * Exchange.CHUNK_BYTES + 1_000);
        Queue<int[]> sent = new ConcurrentLinkedQueue<>();

        Buffer received = LocalGrid.await(sendAndReceive(body, sent));

        assertThat(sent).as("frames sent").hasSize(3);
        assertThat(received).isEqualTo(body);
        received.appendBuffer(Buffer.buffer("more"));
        assertThat(received.length()).isEqualTo(body.length() + 4);
    }

    @Test
    void aSmallBodyIsOneFrameAndCanGrow() {
        Buffer body = randomBytes(100);

        Buffer received = LocalGrid.await(sendAndReceive(body, new ConcurrentLinkedQueue<>()));

        assertThat(received).isEqualTo(body);
        received.appendBuffer(Buffer.buffer("more"));
        assertThat(received.getBuffer(100, 104).toString()).isEqualTo("more");
    }

    /** Rank 0 sends {@code body} to rank 1; completes with what rank 1 received. */
    private Future<Buffer> sendAndReceive(Buffer body, Queue<int[]> sent) {
        int collective = sequence.incrementAndGet();
        List<Promise<Buffer>> results = new ArrayList<>();
        for (Communicator member : grid.world()) {
            Promise<Buffer> result = Promise.promise();
            results.add(result);
            member.context().runOnContext(ignored -> {
                Exchange exchange = new Exchange(new RecordingChannel(member.collectiveChannel(), sent),
                        Operation.BCAST, collective, 0, "test#" + member.rank());
                Future<Buffer> outcome = member.rank() == 0
                        ? exchange.send(1, 0, body).map(body)
                        : exchange.receive(0, 0);
                outcome.onComplete(result);
            });
        }
        LocalGrid.await(results.get(0).future());
        return results.get(1).future();
    }

    private static Buffer randomBytes(int length) {
        byte[] bytes = new byte[length];
        new SplittableRandom(length).nextBytes(bytes);
        return Buffer.buffer(bytes);
    }
}
