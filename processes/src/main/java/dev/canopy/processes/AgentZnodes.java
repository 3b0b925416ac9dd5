package dev.canopy.processes;

import dev.canopy.core.internal.membership.JobZnodes;
import dev.canopy.core.node.JobId;
import java.util.regex.Pattern;

/**
 * Where the agents of one pool meet the parents that spawn, under {@code /canopy/agents/<pool>}. Every znode
 * below belongs to the ZooKeeper identity of the pool's secret (the job secret of the jobs it serves), so only
 * holders of that secret can read agents, write requests or fake a child's state:
 * <pre>
 * /canopy/agents/&lt;pool&gt;/hosts/&lt;agent&gt;                 ephemeral, {@link AgentInfo}
 * /canopy/agents/&lt;pool&gt;/requests/&lt;agent&gt;/&lt;job&gt;       ephemeral of the parent root, {@link SpawnRequest}
 * /canopy/agents/&lt;pool&gt;/status/&lt;job&gt;/&lt;process&gt;       {@link ChildState}, written by the agents
 * </pre>
 * A request is the parent root's lease on its children: when it is deleted (the spawn failed, or the parent
 * root's ZooKeeper session ended) the agent kills them.
 */
public final class AgentZnodes {

    /** The pool agents join and spawns use unless told otherwise. */
    public static final String DEFAULT_POOL = "default";
    /** Most children one request may start. */
    static final int MAX_CHILDREN = 4096;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private final String pool;

    public AgentZnodes(String pool) {
        this.pool = requireName(pool, "pool name");
    }

    /** Checks {@code name} is usable as a znode name: 1 to 64 letters, digits and . _ - (not . or ..). */
    public static String requireName(String name, String what) {
        if (name == null || !NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException(what + " '" + name + "' must be 1 to 64 characters of letters, digits"
                    + " and . _ - (and not . or ..)");
        }
        return name;
    }

    public String pool() {
        return pool;
    }

    public String root() {
        return JobZnodes.AGENTS + "/" + pool;
    }

    public String hosts() {
        return root() + "/hosts";
    }

    public String host(String agent) {
        return hosts() + "/" + agent;
    }

    public String requests(String agent) {
        return root() + "/requests/" + agent;
    }

    public String request(String agent, JobId job) {
        return requests(agent) + "/" + job.name();
    }

    public String status(JobId job) {
        return root() + "/status/" + job.name();
    }

    /** The state of {@code process}, or with -1 of the request as a whole ({@link ChildState#process()}). */
    public String status(JobId job, int process) {
        return status(job) + "/" + (process < 0 ? "request" : Integer.toString(process));
    }
}
