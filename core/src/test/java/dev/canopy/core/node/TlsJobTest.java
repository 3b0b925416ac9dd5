package dev.canopy.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.core.testing.Await;
import dev.canopy.core.testing.TestPki;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job of four real nodes (real ZooKeeper, sockets on 127.0.0.1), each with its own certificate from the
 * job's CA, every connection under TLS 1.3: point-to-point messages between every pair and collective
 * operations (agree, split) work as without TLS, and no connection was refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class TlsJobTest {

    private static final int SIZE = 4;
    private static final int TAG = 11;

    @TempDir
    static Path directory;
    private LocalJob job;

    @BeforeAll
    void startJob() {
        TestPki ca = TestPki.authority("tls job CA");
        List<TlsSettings> tls = new ArrayList<>();
        for (int i = 0; i < SIZE; i++) {
            TestPki.Files3 files = ca.write(directory, "node-" + i, ca.issue(TlsSettings.JOB_PEER_NAME));
            tls.add(TlsSettings.load(files.certificate(), files.key(), files.ca()).withPeerName(TlsSettings.JOB_PEER_NAME));
        }
        // A long session: this test is about TLS, not about failure detection on a loaded machine.
        job = LocalJob.start("tls-job", LocalJob.spreadOver(SIZE, 2),
                (i, options) -> options.withTls(tls.get(i)).withSessionTimeout(Duration.ofSeconds(15)));
    }

    @AfterAll
    void stopJob() {
        job.close();
    }

    @Test
    void everyPairExchangesMessagesUnderTls() {
        for (int from = 0; from < SIZE; from++) {
            for (int to = 0; to < SIZE; to++) {
                if (from != to) {
                    Await.result(job.world(from).send(to, TAG, Buffer.buffer(from + "->" + to)));
                }
            }
        }
        for (int to = 0; to < SIZE; to++) {
            for (int from = 0; from < SIZE; from++) {
                if (from != to) {
                    assertThat(Await.result(job.world(to).receive(from, TAG)).payload().toString()).isEqualTo(from + "->" + to);
                }
            }
        }
        assertNothingRefused();
    }

    @Test
    void collectiveOperationsRunUnderTls() {
        List<Future<Boolean>> agreed = job.worlds().stream().map(world -> world.agree(world.rank() != 2)).toList();
        agreed.forEach(vote -> assertThat(Await.result(vote)).isFalse());

        List<Future<Communicator>> halves = job.worlds().stream().map(world -> world.split(world.rank() % 2, world.rank()))
                .toList();
        List<Communicator> split = halves.stream().map(Await::result).toList();
        for (Communicator half : split) {
            assertThat(half.size()).isEqualTo(SIZE / 2);
        }
        // The even half's two members talk over their TLS connections.
        Await.result(split.get(0).send(1, TAG, Buffer.buffer("even")));
        assertThat(Await.result(split.get(2).receive(0, TAG)).payload().toString()).isEqualTo("even");
        assertNothingRefused();
    }

    private void assertNothingRefused() {
        for (int rank = 0; rank < SIZE; rank++) {
            assertThat(job.node(rank).securityCounters().total()).as("refusals at rank %d", rank).isZero();
        }
    }
}
