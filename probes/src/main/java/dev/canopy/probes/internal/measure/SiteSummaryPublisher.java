package dev.canopy.probes.internal.measure;

import dev.canopy.core.node.JobId;
import dev.canopy.probes.internal.forecast.ErrorMetric;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.x.async.AsyncCuratorFramework;
import org.apache.curator.x.async.api.CreateOption;
import org.apache.zookeeper.CreateMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes this node's {@link SiteSummary} in ZooKeeper while it is its site's representative, at
 * {@code /canopy/jobs/<job>/probes/summary/<site>} (an ephemeral znode: it goes when the node goes, and the
 * next representative writes its own). Tools outside the job read them with {@link #readBlocking}.
 * ZooKeeper is reached through Curator's async API; nothing blocks the event loop.
 */
public final class SiteSummaryPublisher {

    private static final Logger LOG = LoggerFactory.getLogger(SiteSummaryPublisher.class);
    static final String SUMMARY = "/probes/summary";

    private final Vertx vertx;
    private final ProbeService service;
    private final AsyncCuratorFramework zooKeeper;
    private final JobId job;
    private final Duration interval;
    private final ErrorMetric ranking;
    private long timer = -1;
    private Optional<String> publishedPath = Optional.empty();

    public SiteSummaryPublisher(Vertx vertx, ProbeService service, CuratorFramework client, JobId job,
                                Duration interval, ErrorMetric ranking) {
        this.vertx = vertx;
        this.service = service;
        this.zooKeeper = AsyncCuratorFramework.wrap(namespaced(client, job));
        this.job = job;
        this.interval = interval;
        this.ranking = ranking;
    }

    /** Publishes now and then every interval. */
    public void start() {
        service.context().runOnContext(v -> {
            publishNow();
            timer = vertx.setPeriodic(interval.toMillis(), id -> publishNow());
        });
    }

    public void stop() {
        service.context().runOnContext(v -> vertx.cancelTimer(timer));
    }

    /** Publishes the current summary if this node is a representative; completes when ZooKeeper has it. */
    public Future<Void> publishNow() {
        return service.plan().compose(plan -> service.forecasts().compose(forecasts -> {
            Optional<SiteSummary> summary = SiteSummary.of(service.self(), plan, forecasts, ranking);
            if (summary.isEmpty()) {
                return Future.<Void>succeededFuture();
            }
            String path = SUMMARY + "/" + URLEncoder.encode(summary.get().site(), StandardCharsets.UTF_8);
            publishedPath = Optional.of(path);
            return write(path, summary.get().toJson().toBuffer().getBytes());
        }));
    }

    private Future<Void> write(String path, byte[] data) {
        Promise<Void> written = Promise.promise();
        zooKeeper.create()
                .withOptions(EnumSet.of(CreateOption.createParentsIfNeeded, CreateOption.setDataIfExists),
                        CreateMode.EPHEMERAL)
                .forPath(path, data)
                .whenComplete((created, error) -> service.context().runOnContext(v -> {
                    if (error == null) {
                        written.complete();
                    } else {
                        LOG.warn("cannot publish the probe summary of job {} at {}: {}", job, path, error.toString());
                        written.fail(error);
                    }
                }));
        return written.future();
    }

    /** The path last written, if any (relative to {@code /canopy/jobs/<job>}). */
    public Optional<String> publishedPath() {
        return publishedPath;
    }

    /**
     * Every site summary of {@code job} currently published. Uses the blocking Curator API: call it from a
     * tool's main thread or a worker, never from an event loop.
     *
     * @throws IllegalArgumentException if a summary is not readable, naming its znode
     */
    public static List<SiteSummary> readBlocking(CuratorFramework client, JobId job) throws Exception {
        CuratorFramework namespaced = namespaced(client, job);
        List<SiteSummary> summaries = new ArrayList<>();
        if (namespaced.checkExists().forPath(SUMMARY) == null) {
            return summaries;
        }
        for (String site : namespaced.getChildren().forPath(SUMMARY)) {
            String path = SUMMARY + "/" + site;
            byte[] data = namespaced.getData().forPath(path);
            summaries.add(SiteSummary.fromJson(data, "/canopy/jobs/" + job.name() + path));
        }
        return summaries;
    }

    private static CuratorFramework namespaced(CuratorFramework client, JobId job) {
        return client.usingNamespace("canopy/jobs/" + job.name());
    }
}
