package dev.canopy.collectives.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Canopy inside a Vert.x application: processes deployed as {@link CanopyVerticle}s on the application's own
 * Vert.x, which they leave open, and the blocking join on a Vert.x made from the program's {@link VertxOptions}.
 */
@Timeout(120)
class VertxApplicationJoinTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String LEVEL_FILE = """
            +
            ( &(type = grid) (name = "vertx-application") (default_rtt_ms = 10) )
            ( &(type = subjob) (label = "a") (count = 1) (wan_group = "a") (site = "a") )
            ( &(type = subjob) (label = "b") (count = 1) (wan_group = "b") (site = "b") )
            ( &(type = subjob) (label = "c") (count = 1) (wan_group = "c") (site = "c") )
            """;
    private final GridModel grid = GridConfigs.parse(LEVEL_FILE, "vertx-application.rsl").orElseThrow();
    private final JobSecret secret = JobSecret.generate();

    /** A process that allreduces its rank once joined, on its own verticle's context. */
    private static final class SummingVerticle extends CanopyVerticle {
        final Promise<Long> sum = Promise.promise();
        final Promise<Boolean> onOwnContext = Promise.promise();

        SummingVerticle(JoinOptions options) {
            super(options);
        }

        @Override
        protected Future<?> joined(CanopySession session) {
            onOwnContext.complete(Vertx.currentContext() == context);
            return session.collectives().typed(ArrayType.LONGS).allreduce(new long[] {session.rank() + 1}, BuiltInOp.SUM)
                    .onSuccess(all -> sum.complete(all[0]));
        }
    }

    @Test
    void verticlesOnTheApplicationsVertxJoinRunACollectiveAndLeaveTheirVertxOpen() {
        Vertx application = Vertx.vertx();
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start()) {
            List<SummingVerticle> processes = new ArrayList<>();
            List<Future<String>> deployed = new ArrayList<>();
            for (int process = 0; process < grid.processCount(); process++) {
                SummingVerticle verticle = new SummingVerticle(options(process, zooKeeper.connectString(), "verticles"));
                processes.add(verticle);
                deployed.add(application.deployVerticle(verticle));
            }
            List<String> ids = new ArrayList<>();
            for (Future<String> id : deployed) {
                ids.add(Await.result(id, WAIT));
            }
            for (SummingVerticle process : processes) {
                assertThat(Await.result(process.sum.future(), WAIT)).isEqualTo(6);
                assertThat(Await.result(process.onOwnContext.future(), WAIT)).as("joined runs on the verticle's context")
                        .isTrue();
            }
            assertThat(zooKeeper.clientConnections()).as("one ZooKeeper session per process").isEqualTo(3);

            // Undeploying finishes like close(): a barrier with every member, so all undeploy together.
            Await.result(Future.all(ids.stream().map(application::undeploy).toList()), WAIT);
            Await.until(WAIT, () -> zooKeeper.clientConnections() == 0,
                    () -> "every process to leave the job; open: " + zooKeeper.clientConnections());
            assertThat(Await.result(application.executeBlocking(() -> "still running"), WAIT))
                    .as("the application's Vert.x outlives the sessions").isEqualTo("still running");
        } finally {
            Await.result(application.close(), WAIT);
        }
    }

    /** A deployment that fails is never undeployed: the verticle leaves the job itself. */
    @Test
    void verticlesWhoseJoinedWorkFailsLeaveTheJobAndFailTheirDeployment() {
        Vertx application = Vertx.vertx();
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start()) {
            List<Future<String>> deployed = new ArrayList<>();
            for (int process = 0; process < grid.processCount(); process++) {
                deployed.add(application.deployVerticle(new CanopyVerticle(options(process, zooKeeper.connectString(),
                        "failing-verticles")) {
                    @Override
                    protected Future<?> joined(CanopySession session) {
                        return Future.failedFuture(new IllegalStateException("the program's own start-up failed"));
                    }
                }));
            }
            for (Future<String> deployment : deployed) {
                assertThat(Await.failure(deployment, WAIT)).hasMessage("the program's own start-up failed");
            }
            Await.until(WAIT, () -> zooKeeper.clientConnections() == 0,
                    () -> "every failed process to leave the job; open: " + zooKeeper.clientConnections());
            assertThat(application.deploymentIDs()).isEmpty();
        } finally {
            Await.result(application.close(), WAIT);
        }
    }

    @Test
    void theBlockingJoinRunsOnAVertxMadeFromTheProgramsOptions() throws Exception {
        ExecutorService mains = Executors.newFixedThreadPool(grid.processCount());
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start()) {
            List<CompletableFuture<CanopySession>> joining = new ArrayList<>();
            for (int process = 0; process < grid.processCount(); process++) {
                JoinOptions options = options(process, zooKeeper.connectString(), "vertx-options");
                joining.add(CompletableFuture.supplyAsync(
                        () -> Canopy.join(options, new VertxOptions().setUseDaemonThread(true)), mains));
            }
            List<CanopySession> sessions = new ArrayList<>();
            for (CompletableFuture<CanopySession> session : joining) {
                sessions.add(session.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            }
            for (CanopySession session : sessions) {
                Context context = session.world().context();
                Promise<Boolean> daemon = Promise.promise();
                context.runOnContext(v -> daemon.complete(Thread.currentThread().isDaemon()));
                assertThat(Await.result(daemon.future(), WAIT))
                        .as("the session's event loop is a daemon thread, as the given options ask").isTrue();
            }
            List<CompletableFuture<Void>> closing = sessions.stream()
                    .map(session -> CompletableFuture.runAsync(session::close, mains)).toList();
            for (CompletableFuture<Void> closed : closing) {
                closed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        } finally {
            mains.shutdownNow();
        }
    }

    private JoinOptions options(int process, String connectString, String job) {
        return new JoinOptions(JobId.of(job), process, grid, connectString, TransportStack.none(), secret);
    }
}
