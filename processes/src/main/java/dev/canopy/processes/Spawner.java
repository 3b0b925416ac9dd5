package dev.canopy.processes;

import dev.canopy.core.internal.membership.JobMemberZnodes;
import dev.canopy.core.internal.membership.JobZnodes;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parent root's side of a spawn: reads the pool's agents, places the children ({@link Placer}), writes one
 * request per chosen agent (ephemeral: the parent root's lease on its children), then follows the spawn until
 * the child job's start record lists every child (success), an agent reports a child that could not start or
 * ended, a chosen agent's znode vanishes, or the timeout passes. On failure it withdraws every request, so the
 * agents kill whatever they started, and removes the child job's znodes; the future fails with a
 * {@link SpawnFailedException} that says why.
 *
 * <p>The client must carry the job secret's credentials (the pool's znodes belong to them). ZooKeeper calls run
 * on worker threads ({@code executeBlocking}); while a spawn is pending its state is read every
 * {@value #POLL_MILLIS} ms.
 */
public final class Spawner {

    private static final Logger LOG = LoggerFactory.getLogger(Spawner.class);
    static final long POLL_MILLIS = 10;

    private final Vertx vertx;
    private final CuratorFramework client;
    private final AgentZnodes znodes;

    public Spawner(Vertx vertx, CuratorFramework client, AgentZnodes znodes) {
        this.vertx = vertx;
        this.client = client;
        this.znodes = znodes;
    }

    /** The agents registered in the pool; a malformed agent znode is skipped with a warning naming it. */
    public Future<List<AgentInfo>> agents() {
        return vertx.executeBlocking(this::readAgents, false);
    }

    /** Starts the children of {@code order}; completes once all have joined their job. */
    public Future<SpawnedChildren> spawn(SpawnOrder order) {
        long deadline = System.nanoTime() + order.timeout().toNanos();
        return vertx.executeBlocking(() -> request(order), false)
                .recover(e -> Future.failedFuture(e instanceof SpawnFailedException ? e
                        : new SpawnFailedException("spawn of " + order.childJob() + " failed: " + e.getMessage(), e)))
                .compose(placed -> follow(order, placed, deadline, System.nanoTime())
                        .recover(failure -> withdraw(order.childJob(), placed).transform(ignored -> Future.failedFuture(failure))));
    }

    /** Withdraws the requests of {@code children}: their agents kill them. */
    public Future<Void> release(SpawnedChildren children) {
        return withdraw(children.job(), children.agents());
    }

    private List<AgentInfo> readAgents() throws Exception {
        List<String> names;
        try {
            names = client.getChildren().forPath(znodes.hosts());
        } catch (KeeperException.NoNodeException none) {
            return List.of();
        }
        List<AgentInfo> agents = new ArrayList<>();
        for (String name : names) {
            String path = znodes.host(name);
            try {
                AgentInfo agent = AgentInfo.decode(client.getData().forPath(path), path);
                if (!agent.agent().equals(name)) {
                    throw new IllegalArgumentException("names agent " + agent.agent() + ", not " + name);
                }
                agents.add(agent);
            } catch (KeeperException.NoNodeException gone) {
                // The agent left while we read.
            } catch (IllegalArgumentException e) {
                LOG.warn("skipping the malformed agent znode {}: {}", path, e.getMessage());
            }
        }
        return agents;
    }

    /** Places the children and writes the requests; returns the agent of each child, in process order. */
    private List<AgentInfo> request(SpawnOrder order) throws Exception {
        List<Placed> placed = place(order, readAgents());
        List<AgentInfo> agents = placed.stream().map(Placed::agent).toList();
        GridModel grid = ChildGrid.of(order.parentGrid(), order.childJob().name(), perSite(agents));
        String levelText = GridConfigs.print(grid);
        Map<String, List<SpawnRequest.Process>> perAgent = new LinkedHashMap<>();
        for (int index = 0; index < placed.size(); index++) {
            SpawnCommand command = placed.get(index).command();
            perAgent.computeIfAbsent(placed.get(index).agent().agent(), agent -> new ArrayList<>())
                    .add(new SpawnRequest.Process(index, command.program(), command.arguments()));
        }
        try {
            for (Map.Entry<String, List<SpawnRequest.Process>> agent : perAgent.entrySet()) {
                SpawnRequest request = new SpawnRequest(order.childJob(), levelText, agent.getValue(), order.emulateWan(),
                        order.properties());
                client.create().withMode(CreateMode.EPHEMERAL).forPath(znodes.request(agent.getKey(), order.childJob()),
                        request.encode());
            }
        } catch (KeeperException.NodeExistsException e) {
            withdrawNow(order.childJob(), agents);
            throw new SpawnFailedException("a spawn of job " + order.childJob() + " is already under way; give every"
                    + " spawn its own child job name", e);
        } catch (KeeperException.NoNodeException e) {
            withdrawNow(order.childJob(), agents);
            throw new SpawnFailedException("an agent left the pool while " + order.childJob() + " was being requested ("
                    + e.getPath() + ")", e);
        }
        LOG.info("spawning {} processes of {} ({}) on agents {}", order.count(), order.childJob(), order.describe(),
                perAgent.keySet());
        return agents;
    }

    private record Placed(AgentInfo agent, SpawnCommand command) {
    }

    /**
     * Each command's processes placed in turn, each seeing the load the earlier ones added; then numbered site by
     * site (the child job's level file numbers its processes so).
     */
    private static List<Placed> place(SpawnOrder order, List<AgentInfo> registered) {
        List<AgentInfo> agents = new ArrayList<>(registered);
        List<Placed> placed = new ArrayList<>();
        for (SpawnCommand command : order.commands()) {
            List<AgentInfo> chosen;
            try {
                chosen = Placer.place(command.placement(), agents, command.count(), order.latency());
            } catch (IllegalArgumentException e) {
                throw new SpawnFailedException("cannot place " + command.count() + " processes of " + command.program()
                        + " (job " + order.childJob() + "): " + e.getMessage(), e);
            }
            for (AgentInfo agent : chosen) {
                placed.add(new Placed(agent, command));
                agents.replaceAll(known -> known.agent().equals(agent.agent()) ? known.withLoad(known.load() + 1) : known);
            }
        }
        List<String> siteOrder = placed.stream().map(one -> one.agent().site()).distinct().toList();
        placed.sort(Comparator.comparingInt(one -> siteOrder.indexOf(one.agent().site())));
        // Report each agent as it was registered, not with the load this spawn added.
        return placed.stream().map(one -> new Placed(registered.stream().filter(r -> r.agent().equals(one.agent().agent()))
                .findFirst().orElseThrow(), one.command())).toList();
    }

    private sealed interface Progress {
    }

    private record Pending() implements Progress {
    }

    private record Joined(List<Member> members) implements Progress {
    }

    private record Failed(String why) implements Progress {
    }

    private Future<SpawnedChildren> follow(SpawnOrder order, List<AgentInfo> placed, long deadline, long requested) {
        Promise<SpawnedChildren> done = Promise.promise();
        poll(order, placed, deadline, requested, done);
        return done.future();
    }

    private void poll(SpawnOrder order, List<AgentInfo> placed, long deadline, long requested,
            Promise<SpawnedChildren> done) {
        vertx.executeBlocking(() -> progress(order, placed), false).onComplete(checked -> {
            Progress progress = checked.succeeded() ? checked.result()
                    : new Failed("reading its state in ZooKeeper failed: " + checked.cause());
            if (progress instanceof Joined joined) {
                done.complete(new SpawnedChildren(order.childJob(), ChildGrid.of(order.parentGrid(), order.childJob().name(),
                        perSite(placed)), placed, joined.members(), requested));
            } else if (progress instanceof Failed failed) {
                done.fail(new SpawnFailedException("spawn of " + order.count() + " processes of " + order.childJob()
                        + " (" + order.describe() + ") failed: " + failed.why()));
            } else if (System.nanoTime() > deadline) {
                done.fail(new SpawnFailedException("spawn of " + order.count() + " processes of " + order.childJob() + " ("
                        + order.describe() + ") failed: not every child joined within " + order.timeout().toMillis()
                        + " ms (" + states(order.childJob()) + "); the children were killed. Raise the spawn timeout if"
                        + " the hosts are slow to start JVMs"));
            } else {
                vertx.setTimer(POLL_MILLIS, tick -> poll(order, placed, deadline, requested, done));
            }
        });
    }

    private Progress progress(SpawnOrder order, List<AgentInfo> placed) throws Exception {
        // The start record first: once every child joined, a child that ended since is the program's business.
        String start = JobMemberZnodes.startPath(order.childJob());
        try {
            List<Member> members = JobMemberZnodes.decodeStartRecord(client.getData().forPath(start), start);
            return members.size() == order.count() ? new Joined(members)
                    : new Failed("the child job's start record lists " + members.size() + " members, not " + order.count());
        } catch (KeeperException.NoNodeException notYet) {
            // Not every child has joined yet.
        }
        for (ChildState state : readStates(order.childJob())) {
            if (state.state() != ChildState.State.RUNNING) {
                return new Failed(state.detail());
            }
        }
        for (AgentInfo agent : placed.stream().distinct().toList()) {
            if (client.checkExists().forPath(znodes.host(agent.agent())) == null) {
                return new Failed("agent " + agent.agent() + " on host " + agent.host() + " left the pool (it died or"
                        + " was stopped) before its children joined");
            }
        }
        return new Pending();
    }

    private List<ChildState> readStates(JobId job) throws Exception {
        List<String> names;
        try {
            names = client.getChildren().forPath(znodes.status(job));
        } catch (KeeperException.NoNodeException none) {
            return List.of();
        }
        List<ChildState> states = new ArrayList<>();
        for (String name : names) {
            String path = znodes.status(job) + "/" + name;
            try {
                states.add(ChildState.decode(client.getData().forPath(path), path));
            } catch (KeeperException.NoNodeException gone) {
                // Withdrawn meanwhile.
            } catch (IllegalArgumentException malformed) {
                states.add(new ChildState(-1, ChildState.State.FAILED, 0, malformed.getMessage()));
            }
        }
        return states;
    }

    /** The children's states in words, for a timeout's message. */
    private String states(JobId job) {
        try {
            List<ChildState> states = readStates(job);
            long running = states.stream().filter(state -> state.state() == ChildState.State.RUNNING).count();
            return running + " running, none reported failing";
        } catch (Exception e) {
            return "their states are unreadable: " + e;
        }
    }

    private static Map<String, Integer> perSite(List<AgentInfo> placed) {
        Map<String, Integer> perSite = new LinkedHashMap<>();
        placed.forEach(agent -> perSite.merge(agent.site(), 1, Integer::sum));
        return perSite;
    }

    private Future<Void> withdraw(JobId job, List<AgentInfo> placed) {
        return vertx.<Void>executeBlocking(() -> {
            withdrawNow(job, placed);
            return null;
        }, false);
    }

    /** Deletes the requests (the agents kill the children), the states and the child job's znodes. */
    private void withdrawNow(JobId job, List<AgentInfo> placed) throws Exception {
        for (AgentInfo agent : placed.stream().distinct().toList()) {
            client.delete().quietly().forPath(znodes.request(agent.agent(), job));
        }
        client.delete().quietly().deletingChildrenIfNeeded().forPath(znodes.status(job));
        JobZnodes.sweep(client, job);
    }
}
