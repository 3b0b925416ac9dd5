package dev.canopy.processes;

import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.model.GridModel;
import java.util.List;

/**
 * The children of one spawn, once every one of them has joined its job: the job, its grid, the agent that
 * runs each child (in child order), the job's members as its start record lists them, and when (System.nanoTime)
 * the requests were written to the agents, for the spawn's timeline.
 */
public record SpawnedChildren(JobId job, GridModel grid, List<AgentInfo> agents, List<Member> members,
        long requestedNanos) {

    public SpawnedChildren {
        agents = List.copyOf(agents);
        members = List.copyOf(members);
    }
}
