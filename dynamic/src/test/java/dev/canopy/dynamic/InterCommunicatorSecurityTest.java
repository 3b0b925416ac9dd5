package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.CommunicatorRuntime;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.core.testing.Await;
import dev.canopy.core.testing.TestPki;
import dev.canopy.core.transport.PeerUnavailableException;
import dev.canopy.core.transport.RawHandshake;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.core.transport.TransportSecurity;
import dev.canopy.core.transport.VertxTransport;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who can get into an inter-communicator between two jobs that keep their own job secrets (real embedded ZooKeeper,
 * real sockets): only holders of the port's key, which only holders of the name-service secret can read. A process
 * that knows the port name but not the key, whatever secret it has (its own, either job's, the name service's),
 * is refused at the handshake; a holder of the key that is no member cannot speak as one; with TLS both groups'
 * links are TLS, a peer without it is refused, and a group without TLS is told to use --tls. Nothing a client-job
 * process holds (its job secret, the name-service secret, the port key) gets it into the server job.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class InterCommunicatorSecurityTest {

    private static final int TAG = 7;
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final TestPki CA = TestPki.authority("jobs' CA");

    @TempDir
    static Path directory;
    private TwoJobs jobs;
    private TlsSettings tls;
    private final List<DynamicProcesses> opened = new ArrayList<>();
    private final List<Transport> attackers = new ArrayList<>();
    /** A process of the namespace that is no member of any inter-communicator: it may read ports' keys. */
    private NameService names;

    @BeforeAll
    void start() {
        jobs = TwoJobs.start(TwoJobs.fourSites(), new int[] {0, 3}, new int[] {6, 9}, false, InterPhase.FLAT);
        // Both jobs' certificates from one CA here; two sites' CAs work as well when each trusts the other (--tls-ca).
        tls = TlsSettings.load(CA.write(directory, "node", CA.issue("canopy-node")).certificate(),
                directory.resolve("node.key"), directory.resolve("node-ca.crt"));
        names = Await.result(NameService.open(jobs.vertx, jobs.options(0, InterPhase.FLAT)));
    }

    @AfterAll
    void close() {
        attackers.forEach(attacker -> Await.result(attacker.close().otherwiseEmpty()));
        opened.forEach(DynamicProcesses::close);
        if (names != null) {
            Await.result(names.closeAsync().otherwiseEmpty());
        }
        if (jobs != null) {
            jobs.close();
        }
    }

    @Test
    void aProcessThatKnowsThePortNameButNotItsKeyIsRefusedWhateverSecretItHolds() {
        TwoJobs.Pair inter = jobs.connect("guarded");
        try {
            PortName port = Await.result(jobs.client.get(0).dynamic().lookupName("guarded"));
            Member server = inter.client().get(0).remoteMember(0);
            Member client = inter.server().get(0).remoteMember(0);
            InterCommunicator target = inter.server().get(0);
            JobId job = target.credential().job(); // told the inter-communicator's job name, which it could not derive
            long refusedBefore = target.securityCounters().get(Rejection.HANDSHAKE_BAD_PROOF);
            // Its own secret, each job's secret, the name service's, the port's key: none is the pairing's key. Each
            // outsider claims to be the client's rank 0, answers the server's challenge as well as it can and then
            // sends DATA frames.
            List<JobSecret> guesses = List.of(JobSecret.generate(), jobs.serverSecret, jobs.clientSecret, jobs.namesSecret,
                    JobSecret.of(Await.result(names.portKey(port))));
            for (JobSecret guess : guesses) {
                RawHandshake.Connection forged = RawHandshake.connect(jobs.vertx, server,
                        TransportSecurity.of(guess, job), client.address(), Buffer.buffer());
                for (int i = 0; i < 5; i++) {
                    forged.socket().write(FrameCodec.encode(forgedData(job, "forged by an outsider " + i)));
                }
                Await.result(forged.closed(), BOUND);
            }
            assertThat(target.securityCounters().get(Rejection.HANDSHAKE_BAD_PROOF)).isEqualTo(refusedBefore + guesses.size());
            assertTheServerGetsOnlyTheClientsMessages(inter, "after outsiders");
        } finally {
            inter.disconnect();
        }
    }

    @Test
    void aMemberOfTheClientJobCannotGetIntoTheServerJobItsConnectedTo() {
        TwoJobs.Pair inter = jobs.connect("isolated");
        try {
            CanopyNode serverNode = jobs.server.get(0).node();
            Member server = new Member(NodeId.of("p" + jobs.server.get(0).index()), serverNode.coordinates(),
                    serverNode.address());
            long before = serverNode.securityCounters().get(Rejection.HANDSHAKE_BAD_PROOF);
            // Everything a client-job process holds: its job's secret, the name-service secret, the port's key.
            PortName port = Await.result(jobs.client.get(0).dynamic().lookupName("isolated"));
            List<JobSecret> held = List.of(jobs.clientSecret, jobs.namesSecret, JobSecret.of(Await.result(names.portKey(port))));
            for (JobSecret secret : held) {
                RawHandshake.Connection forged = RawHandshake.connect(jobs.vertx, server,
                        TransportSecurity.of(secret, serverNode.job()), jobs.server.get(1).node().address(), Buffer.buffer());
                Await.result(forged.closed(), BOUND);
            }
            assertThat(serverNode.securityCounters().get(Rejection.HANDSHAKE_BAD_PROOF)).isEqualTo(before + held.size());
            assertTheServerGetsOnlyTheClientsMessages(inter, "after a client process tried the server job");
        } finally {
            inter.disconnect();
        }
    }

    @Test
    void aHolderOfThePairingKeyThatIsNoMemberCannotSpeakAsOne() {
        TwoJobs.Pair inter = jobs.connect("impersonated");
        try {
            // What only the members hold: the pairing's key (a member that hands it on, or a process of one that
            // misbehaves).
            TransportSecurity credential = inter.client().get(1).credential();
            Member server = inter.client().get(0).remoteMember(0);
            InterCommunicator target = inter.server().get(0);
            // Point-to-point, collective, control (aborts, revocations) and liveness (goodbyes) frames, each from a
            // connection of its own, each claiming another rank of the table: every one refused, none acted on.
            List<FrameType> types = List.of(FrameType.DATA, FrameType.COLLECTIVE, FrameType.CONTROL, FrameType.LIVENESS);
            for (int i = 0; i < types.size(); i++) {
                long before = target.securityCounters().get(Rejection.FRAME_WRONG_SOURCE);
                Frame forged = new Frame(types.get(i), credential.job().frameKey(),
                        CommunicatorRuntime.WORLD_CONTEXT, 0, i, 0, TAG, 0, Buffer.buffer("forged by a key holder"));
                attacker(credential, false).send(server, forged);
                Await.until(BOUND, () -> target.securityCounters().get(Rejection.FRAME_WRONG_SOURCE) == before + 1,
                        () -> forged.type() + " from outside the table refused as FRAME_WRONG_SOURCE");
            }
            List<Future<Buffer>> gathered = new ArrayList<>();
            inter.all().forEach(member -> gathered.add(member.allgather(Buffer.buffer(new byte[] {(byte) (10 + member.rank())}))));
            gathered.forEach(result -> assertThat(Await.result(result, BOUND).getBytes()).containsExactly(10, 11));
            assertTheServerGetsOnlyTheClientsMessages(inter, "after a key holder");
        } finally {
            inter.disconnect();
        }
    }

    @Test
    void aSecondPairingThroughTheSamePortCannotJoinTheFirstAndNothingOfEitherStaysInZooKeeper() throws Exception {
        TwoJobs.Pair first = jobs.connect("reused");
        TwoJobs.Pair second = null;
        try {
            PortName port = Await.result(jobs.client.get(0).dynamic().lookupName("reused"));
            // The same two jobs pair again through the same port: a second inter-communicator, with a key of its own.
            List<Future<InterCommunicator>> accepting = jobs.accept(port);
            List<Future<InterCommunicator>> connecting = jobs.connectHere("reused");
            second = new TwoJobs.Pair(accepting.stream().map(f -> Await.result(f, BOUND)).toList(),
                    connecting.stream().map(f -> Await.result(f, BOUND)).toList());
            TransportSecurity firstKey = first.client().get(0).credential();
            TransportSecurity secondKey = second.client().get(0).credential();
            assertThat(secondKey.secret()).isNotEqualTo(firstKey.secret());
            assertThat(secondKey.job()).isNotEqualTo(firstKey.job());
            for (InterCommunicator member : first.all()) {
                assertThat(member.credential().job()).isEqualTo(firstKey.job()); // the job is derived from the key
            }

            // A member of the second pairing tries the first's server rank 0 with everything it holds: its own
            // pairing's key (under its own job name and under the first's), and the port's key.
            Member server = first.client().get(0).remoteMember(0);
            Member client = first.server().get(0).remoteMember(0);
            InterCommunicator target = first.server().get(0);
            long wrongJobBefore = target.securityCounters().get(Rejection.HANDSHAKE_WRONG_JOB);
            RawHandshake.Connection ownJob = RawHandshake.connect(jobs.vertx, server, secondKey, client.address(),
                    Buffer.buffer());
            Await.result(ownJob.closed(), BOUND);
            assertThat(target.securityCounters().get(Rejection.HANDSHAKE_WRONG_JOB)).isEqualTo(wrongJobBefore + 1);
            long before = target.securityCounters().get(Rejection.HANDSHAKE_BAD_PROOF);
            List<TransportSecurity> tries = List.of(TransportSecurity.of(secondKey.secret(), firstKey.job()),
                    TransportSecurity.of(JobSecret.of(Await.result(names.portKey(port))), firstKey.job()));
            for (TransportSecurity attempt : tries) {
                RawHandshake.Connection forged = RawHandshake.connect(jobs.vertx, server, attempt, client.address(),
                        Buffer.buffer());
                forged.socket().write(FrameCodec.encode(forgedData(firstKey.job(), "from the second pairing")));
                Await.result(forged.closed(), BOUND);
            }
            assertThat(target.securityCounters().get(Rejection.HANDSHAKE_BAD_PROOF)).isEqualTo(before + tries.size());
            assertTheServerGetsOnlyTheClientsMessages(first, "after the second pairing tried the first");
            assertTheServerGetsOnlyTheClientsMessages(second, "in the second pairing");

            // Every znode of both finished pairings is gone: nothing is left to replay or to read a key from.
            try (CuratorFramework reader = namespaceClient()) {
                String pairings = pairingsPath();
                Await.until(BOUND, () -> children(reader, pairings).isEmpty(),
                        () -> "the finished pairings' znodes are deleted, left: " + children(reader, pairings));
            }
        } finally {
            first.disconnect();
            if (second != null) {
                second.disconnect();
            }
        }
    }

    @Test
    void aReplayedPairingRequestMeetsAFreshKeyAndCannotPairOrEnterTheFinishedOne() throws Exception {
        PortName port = jobs.publish("replayed");
        try (CuratorFramework attacker = namespaceClient()) {
            // A process of the namespace records the connecting root's request while it waits for the accept.
            List<Future<InterCommunicator>> connecting = jobs.connectHere("replayed");
            String prefix = port.id() + "-c";
            Await.until(BOUND, () -> children(attacker, pairingsPath()).stream().anyMatch(child -> child.startsWith(prefix)
                    && !child.contains(".") && data(attacker, pairingsPath() + "/" + child).length > 0),
                    () -> "the connecting root's request at port " + port);
            String recorded = pairingsPath() + "/" + children(attacker, pairingsPath()).stream()
                    .filter(child -> child.startsWith(prefix) && !child.contains(".")).findFirst().orElseThrow();
            NameRecordSeal seal = new NameRecordSeal(jobs.namesSecret);
            String publicKey = seal.open(recorded, data(attacker, recorded)).text("key", 200);
            List<Future<InterCommunicator>> accepting = jobs.accept(port);
            TwoJobs.Pair first = new TwoJobs.Pair(accepting.stream().map(f -> Await.result(f, BOUND)).toList(),
                    connecting.stream().map(f -> Await.result(f, BOUND)).toList());
            try {
                // The finished pairing's request is gone; the attacker replays it (resealed: it holds the
                // name-service secret) and the server accepts again.
                Await.until(BOUND, () -> !exists(attacker, recorded), () -> "the finished request deleted");
                String replay = attacker.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(pairingsPath() + "/"
                        + prefix, new byte[0]);
                attacker.setData().forPath(replay, seal.seal(replay, new JsonObject().put("key", publicKey)));
                List<Future<InterCommunicator>> replayed = jobs.accept(port);
                Await.until(BOUND, () -> exists(attacker, replay + ".reply"), () -> "the accept answers the replay");
                // The accepting root answered with a fresh key pair: the pairing key needs the recorded root's private
                // key. The best the attacker can seal a record with is the port's key, which the accept refuses.
                String forged = replay + ".connect";
                attacker.create().withMode(CreateMode.EPHEMERAL).forPath(forged,
                        new NameRecordSeal(JobSecret.of(Await.result(names.portKey(port)))).seal(forged,
                                new JsonObject().put("forged", true)));
                for (Future<InterCommunicator> server : replayed) {
                    assertThat(Await.failure(server, BOUND)).hasMessageContaining(forged);
                }
                // Nothing of the replay reached the finished pairing, which still carries exactly its messages.
                assertTheServerGetsOnlyTheClientsMessages(first, "after a replayed request");
            } finally {
                first.disconnect();
            }
        }
    }

    private CuratorFramework namespaceClient() throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(jobs.zooKeeper.connectString())
                .retryPolicy(new RetryOneTime(100))
                .authorization("digest", ZooKeeperCredentials.of(jobs.namesSecret).digestAuthentication()).build();
        client.start();
        if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
            client.close();
            throw new IllegalStateException("no ZooKeeper at " + jobs.zooKeeper.connectString());
        }
        return client;
    }

    private String pairingsPath() {
        return NameService.ROOT + "/" + jobs.namespace + "/pairings";
    }

    private static byte[] data(CuratorFramework reader, String path) {
        try {
            return reader.getData().forPath(path);
        } catch (Exception e) {
            return new byte[0]; // gone meanwhile
        }
    }

    private static boolean exists(CuratorFramework reader, String path) {
        try {
            return reader.checkExists().forPath(path) != null;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> children(CuratorFramework reader, String path) {
        try {
            return reader.getChildren().forPath(path);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void withTlsOnBothSidesEveryLinkIsTlsAndAPlaintextPeerIsRefused() {
        TwoJobs.Pair inter = jobs.connect("tls", process -> dynamic(process, true));
        try {
            assertTheServerGetsOnlyTheClientsMessages(inter, "over TLS");
            List<Future<Buffer>> gathered = new ArrayList<>();
            inter.all().forEach(member -> gathered.add(member.allgather(Buffer.buffer(new byte[] {(byte) member.rank()}))));
            gathered.forEach(result -> assertThat(Await.result(result, BOUND).length()).isEqualTo(2));

            TransportSecurity credential = inter.client().get(1).credential();
            Transport plaintext = attacker(credential, false);
            Member server = inter.client().get(0).remoteMember(0);
            InterCommunicator target = inter.server().get(0);
            long before = target.securityCounters().get(Rejection.TLS_PLAINTEXT_PEER);
            assertThat(Await.failure(plaintext.send(server, forgedData(credential.job(), "in clear")), BOUND))
                    .isInstanceOf(PeerUnavailableException.class);
            Await.until(BOUND, () -> target.securityCounters().get(Rejection.TLS_PLAINTEXT_PEER) > before,
                    () -> "the plaintext peer refused as TLS_PLAINTEXT_PEER");
        } finally {
            inter.disconnect();
        }
    }

    @Test
    void aGroupWithoutTlsIsRefusedByAGroupWithItNamingTheOption() {
        Function<TwoJobs.Process, DynamicProcesses> serverTlsOnly = process -> dynamic(process, jobs.server.contains(process));
        PortName port = publish("mismatch", serverTlsOnly);
        List<Future<InterCommunicator>> all = new ArrayList<>();
        for (TwoJobs.Process process : jobs.server) {
            all.add(serverTlsOnly.apply(process).accept(process.rank() == 0 ? port : null, 0));
        }
        for (TwoJobs.Process process : jobs.client) {
            all.add(serverTlsOnly.apply(process).connect(process.rank() == 0 ? port : null, 0));
        }
        for (int i = 0; i < all.size(); i++) {
            Throwable failure = Await.failure(all.get(i), BOUND);
            assertThat(failure).isInstanceOf(InterCommunicatorException.class).hasMessageContaining("--tls")
                    .hasMessageContaining("DynamicOptions.withTls")
                    .hasMessageContaining(i < jobs.server.size() ? "with TLS and the other group without"
                            : "without TLS and the other group with");
        }
    }

    private PortName publish(String service, Function<TwoJobs.Process, DynamicProcesses> dynamics) {
        DynamicProcesses root = dynamics.apply(jobs.server.get(0));
        PortName port = Await.result(root.openPort());
        Await.result(root.publishName(service, port));
        return port;
    }

    /** Messages both ways between the two groups' rank 0s: each receive gets exactly what the real peer sent. */
    private static void assertTheServerGetsOnlyTheClientsMessages(TwoJobs.Pair inter, String when) {
        for (String text : new String[] {"real 1 " + when, "real 2 " + when}) {
            Await.result(inter.client().get(0).send(0, TAG, Buffer.buffer(text)), BOUND);
            assertThat(Await.result(inter.server().get(0).receive(Communicator.ANY_SOURCE, TAG), BOUND).payload())
                    .hasToString(text);
            Await.result(inter.server().get(0).send(0, TAG, Buffer.buffer("echo " + text)), BOUND);
            assertThat(Await.result(inter.client().get(0).receive(0, TAG), BOUND).payload()).hasToString("echo " + text);
        }
    }

    /** A process of each job's processes with its own dynamic processes: TLS or not. */
    private DynamicProcesses dynamic(TwoJobs.Process process, boolean withTls) {
        DynamicOptions options = jobs.options(process.index(), InterPhase.FLAT);
        DynamicProcesses dynamic = DynamicProcesses.over(process.collectives(), jobs.grid,
                withTls ? options.withTls(tls) : options);
        synchronized (opened) {
            opened.add(dynamic);
        }
        return dynamic;
    }

    /** A transport outside both groups whose handshake proves {@code credential}. */
    private Transport attacker(TransportSecurity credential, boolean withTls) {
        TransportOptions options = TransportOptions.defaults().withNodeLabel("attacker")
                .withReconnect(Duration.ofSeconds(5), 1, Duration.ofMillis(100));
        Transport attacker = Await.result(VertxTransport.start(jobs.vertx, withTls ? options.withTls(tls) : options,
                credential));
        attackers.add(attacker);
        return attacker;
    }

    private static Frame forgedData(JobId job, String text) {
        return new Frame(FrameType.DATA, job.frameKey(), CommunicatorRuntime.WORLD_CONTEXT, 0, 1, 0, TAG, 0,
                Buffer.buffer(text));
    }
}
