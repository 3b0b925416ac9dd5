package dev.canopy.processes;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.JobId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code canopy agent}: starts the processes of spawns on one host. It registers in its pool as an ephemeral
 * znode ({@link AgentInfo}: host, site, load), watches the requests addressed to it, starts each requested
 * child (binding a warm JVM from its {@link WarmPool} when it has one, else starting a cold one) and reports
 * every child's state ({@link ChildState}). When a request is deleted (the spawn failed, or its parent root's
 * ZooKeeper session ended) it kills that request's children; when the agent itself ends, however it ends, its
 * children end too (their standard input is its pipe, {@link ChildMain}).
 *
 * <p>All state is owned by one thread; ZooKeeper events and process exits are posted to it. The agent's own
 * ZooKeeper calls block that thread, never an event loop.
 */
public final class LaunchAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LaunchAgent.class);
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(6);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);

    private record Request(List<StartedChild> children, Path levelFile) {
    }

    private final AgentOptions options;
    private final AgentZnodes znodes;
    private final CuratorFramework client;
    private final ExecutorService owner;
    private final WarmPool warm;
    private final Path levelDirectory;
    private final Map<JobId, Request> running = new HashMap<>();
    private CuratorCache requests;
    private AgentInfo info;

    private LaunchAgent(AgentOptions options, CuratorFramework client, Path levelDirectory) {
        this.options = options;
        this.znodes = new AgentZnodes(options.pool());
        this.client = client;
        this.levelDirectory = levelDirectory;
        this.owner = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "canopy agent " + options.agent());
            thread.setDaemon(true);
            return thread;
        });
        this.warm = new WarmPool(options.starter(), options.warm(), warmProperties(options));
        this.info = new AgentInfo(options.agent(), options.host(), options.site(), 0, options.warm());
    }

    /**
     * Connects to ZooKeeper, registers in the pool and starts serving requests (blocking).
     *
     * @throws IllegalStateException when ZooKeeper does not answer, the pool belongs to another secret, or the
     *         agent name is taken in the pool
     */
    public static LaunchAgent start(AgentOptions options) throws IOException, InterruptedException {
        CuratorFramework client = ZooKeeperSession.builder(options.zooKeeper(), SESSION_TIMEOUT, CONNECT_TIMEOUT,
                Optional.of(ZooKeeperCredentials.of(options.secret())), options.zooKeeperTls()).build();
        client.start();
        if (!client.blockUntilConnected((int) CONNECT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            client.close();
            throw new IllegalStateException("no ZooKeeper server answered at " + options.zooKeeper() + " within "
                    + CONNECT_TIMEOUT.toSeconds() + " s (is it running? check --zk)");
        }
        Path levels = Files.createTempDirectory("canopy-agent-" + options.agent(),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        LaunchAgent agent = new LaunchAgent(options, client, levels);
        try {
            agent.register();
        } catch (RuntimeException e) {
            agent.close();
            throw e;
        }
        return agent;
    }

    public AgentInfo info() {
        synchronized (this) {
            return info;
        }
    }

    /** The agent's ZooKeeper client, for tests that expire its session. */
    CuratorFramework client() {
        return client;
    }

    /** How many warm processes wait, warmed up, for a binding. */
    public int warmReady() {
        return warm.ready();
    }

    private void register() {
        try {
            try {
                client.create().creatingParentContainersIfNeeded().forPath(znodes.requests(options.agent()));
            } catch (KeeperException.NodeExistsException earlier) {
                // Left by an earlier run of this agent: its requests were ephemeral and went with their parents.
            }
            try {
                client.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
                        .forPath(znodes.host(options.agent()), info().encode());
            } catch (KeeperException.NodeExistsException taken) {
                throw new IllegalStateException("an agent named " + options.agent() + " is already registered in pool "
                        + options.pool() + " (" + znodes.host(options.agent()) + "): give each agent its own --name");
            }
        } catch (KeeperException.NoAuthException e) {
            throw new IllegalStateException("ZooKeeper refuses this agent access to " + znodes.root() + ": pool "
                    + options.pool() + " belongs to another secret; give the job's --secret-file or another --pool", e);
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot register agent " + options.agent() + " in ZooKeeper at "
                    + options.zooKeeper() + ": " + e, e);
        }
        // A new ZooKeeper session (after the old one expired) has lost the ephemeral znode: register again.
        client.getConnectionStateListenable().addListener((curator, state) -> {
            if (state == ConnectionState.RECONNECTED) {
                owner.execute(this::reregister);
            }
        });
        requests = CuratorCache.build(client, znodes.requests(options.agent()));
        requests.listenable().addListener(CuratorCacheListener.builder()
                .forCreates(node -> owner.execute(() -> started(node)))
                .forDeletes(node -> owner.execute(() -> cancelled(node)))
                .build());
        requests.start();
        LOG.info("[{}/{}] agent {} serves pool {} (warm pool {})", options.site(), options.host(), options.agent(),
                options.pool(), options.warm());
    }

    /**
     * Registers again under the current session when the agent's znode is missing or still belongs to an expired
     * session of this agent (the server removes that one only when it notices the expiry itself).
     */
    private void reregister() {
        String path = znodes.host(options.agent());
        try {
            Stat stat = client.checkExists().forPath(path);
            long session = client.getZookeeperClient().getZooKeeper().getSessionId();
            if (stat != null && stat.getEphemeralOwner() == session) {
                return;
            }
            if (stat != null) {
                try {
                    client.delete().withVersion(stat.getVersion()).forPath(path);
                } catch (KeeperException.NoNodeException expiredMeanwhile) {
                    // The server removed it first.
                }
            }
            client.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, info().encode());
            LOG.info("[{}] registered again in pool {} after a new ZooKeeper session", options.agent(), options.pool());
        } catch (Exception e) {
            LOG.warn("[{}] cannot register again in pool {}: {}", options.agent(), options.pool(), e.toString());
        }
    }

    /** What the pool's JVMs may prepare before they are bound: a connection to this agent's ensemble. */
    private static Map<String, String> warmProperties(AgentOptions options) {
        Map<String, String> properties = new HashMap<>(Map.of(ChildStarter.WARM_ZOOKEEPER_PROPERTY, options.zooKeeper()));
        options.zooKeeperTls().ifPresent(tls -> properties.put(ChildStarter.WARM_ZOOKEEPER_TLS_PROPERTY,
                tls.directory().toAbsolutePath().toString()));
        return properties;
    }

    /** A request appeared: start its children. */
    private void started(ChildData node) {
        Optional<JobId> job = requestJob(node.getPath());
        if (job.isEmpty() || running.containsKey(job.get())) {
            return;
        }
        SpawnRequest request;
        try {
            request = SpawnRequest.decode(node.getData(), node.getPath());
            if (!request.job().equals(job.get())) {
                throw new MalformedZnodeException(node.getPath(), "names job " + request.job() + ", not " + job.get());
            }
        } catch (IllegalArgumentException e) {
            LOG.warn("[{}] refusing request {}: {}", options.agent(), node.getPath(), e.getMessage());
            report(job.get(), new ChildState(-1, ChildState.State.FAILED, 0, "agent " + options.agent()
                    + " refused the request: " + e.getMessage()));
            return;
        }
        Path levelFile = levelDirectory.resolve(job.get().name() + ".rsl");
        try {
            Files.writeString(levelFile, request.levelText(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            report(job.get(), new ChildState(-1, ChildState.State.FAILED, 0, "agent " + options.agent()
                    + " cannot write the level file " + levelFile + ": " + e.getMessage()));
            return;
        }
        List<StartedChild> children = new ArrayList<>();
        running.put(job.get(), new Request(children, levelFile));
        // Every child is bound (or started) before any state is reported: each report is a ZooKeeper write, and the
        // children of a request start side by side instead of one write after another.
        List<ChildState> states = new ArrayList<>();
        for (SpawnRequest.Process requested : request.processes()) {
            int process = requested.index();
            ChildBinding binding = new ChildBinding(job.get(), process, levelFile, options.zooKeeper(),
                    options.secretFile(), requested.program(), requested.arguments(), request.emulateWan(),
                    request.properties());
            try {
                StartedChild child = bindOrStart(binding);
                children.add(child);
                states.add(new ChildState(process, ChildState.State.RUNNING, child.pid(), ""));
                child.onExit().thenRun(() -> owner.execute(() -> ended(job.get(), process, child)));
            } catch (UncheckedIOException e) {
                states.add(new ChildState(process, ChildState.State.FAILED, 0, "agent " + options.agent()
                        + " on " + options.host() + " could not start process " + process + ": " + e.getMessage()));
            }
        }
        LOG.debug("[{}] bound or started the {} processes of {}", options.agent(), children.size(), job.get());
        states.forEach(state -> report(job.get(), state));
        publishLoad();
        LOG.debug("[{}] reported the states of {}", options.agent(), job.get());
    }

    private StartedChild bindOrStart(ChildBinding binding) {
        Optional<StartedChild> waiting = warm.take();
        if (waiting.isPresent()) {
            waiting.get().bind(binding);
            return waiting.get();
        }
        return options.starter().startCold(binding);
    }

    /** A child ended by itself: report why, while its request still stands. */
    private void ended(JobId job, int process, StartedChild child) {
        Request request = running.get(job);
        if (request == null || !request.children().remove(child)) {
            return; // killed because its request was cancelled
        }
        String why = child.describeExit();
        LOG.info("[{}] process {} of {} ended: {}", options.agent(), process, job, why);
        report(job, new ChildState(process, ChildState.State.EXITED, child.pid(), "process " + process + " (pid "
                + child.pid() + " on " + options.host() + ") ended: " + why));
        publishLoad();
    }

    /** A request was deleted: kill its children and forget it. */
    private void cancelled(ChildData node) {
        Optional<JobId> job = requestJob(node.getPath());
        if (job.isEmpty()) {
            return;
        }
        Request request = running.remove(job.get());
        if (request != null) {
            request.children().forEach(StartedChild::kill);
            deleteQuietly(request.levelFile());
            LOG.info("[{}] request {} withdrawn: killed its {} running processes", options.agent(), job.get(),
                    request.children().size());
        }
        try {
            client.delete().quietly().deletingChildrenIfNeeded().forPath(znodes.status(job.get()));
        } catch (Exception e) {
            LOG.warn("[{}] cannot delete {}: {}", options.agent(), znodes.status(job.get()), e.toString());
        }
        publishLoad();
    }

    /** The job of a request znode directly below this agent's requests, else empty. */
    private Optional<JobId> requestJob(String path) {
        String prefix = znodes.requests(options.agent()) + "/";
        if (!path.startsWith(prefix) || path.indexOf('/', prefix.length()) >= 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(JobId.of(path.substring(prefix.length())));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private void report(JobId job, ChildState state) {
        try {
            client.create().orSetData().creatingParentContainersIfNeeded().forPath(znodes.status(job, state.process()),
                    state.encode());
        } catch (Exception e) {
            LOG.warn("[{}] cannot report {} of {}: {}", options.agent(), state, job, e.toString());
        }
    }

    private void publishLoad() {
        int load = running.values().stream().mapToInt(request -> request.children().size()).sum();
        AgentInfo updated;
        synchronized (this) {
            info = info.withLoad(load);
            updated = info;
        }
        try {
            client.setData().forPath(znodes.host(options.agent()), updated.encode());
        } catch (Exception e) {
            LOG.warn("[{}] cannot publish its load: {}", options.agent(), e.toString());
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", file, e.toString());
        }
    }

    /** Kills every child and warm process, leaves the pool and disconnects (blocking, bounded). */
    @Override
    public void close() {
        try {
            owner.submit(() -> {
                if (requests != null) {
                    requests.close();
                }
                running.values().forEach(request -> {
                    request.children().forEach(StartedChild::kill);
                    deleteQuietly(request.levelFile());
                });
                running.clear();
            }).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("[{}] closing: {}", options.agent(), e.toString());
        }
        owner.shutdownNow();
        warm.close();
        client.close();
        deleteQuietly(levelDirectory);
    }
}
