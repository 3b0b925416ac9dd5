package dev.canopy.processes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Chooses an agent for each child of a spawn. Among the agents the {@link Placement} allows, each child goes to
 * the agent with the fewest processes (those it runs plus those this spawn already gave it), ties broken by the
 * latency from the parent root's site, then by agent name: repeated spawns spread over idle hosts near the root
 * instead of piling onto the same ones as round-robin launchers do. Pure: no ZooKeeper, no clock.
 */
public final class Placer {

    private Placer() {
    }

    /**
     * The agent of each of {@code count} children, in the order they were chosen.
     *
     * @throws IllegalArgumentException when no agent fits {@code placement}, naming those there are
     */
    public static List<AgentInfo> place(Placement placement, List<AgentInfo> agents, int count, SiteLatency latency) {
        if (count < 1) {
            throw new IllegalArgumentException("spawn at least one process, got " + count);
        }
        List<AgentInfo> candidates = candidates(placement, agents);
        Map<String, Integer> given = new HashMap<>();
        Comparator<AgentInfo> best = Comparator.<AgentInfo>comparingInt(agent -> agent.load() + given.getOrDefault(agent.agent(), 0))
                .thenComparingDouble(agent -> latency.fromRootTo(agent.site()))
                .thenComparing(AgentInfo::agent);
        List<AgentInfo> chosen = new ArrayList<>();
        for (int child = 0; child < count; child++) {
            AgentInfo agent = candidates.stream().min(best).orElseThrow();
            given.merge(agent.agent(), 1, Integer::sum);
            chosen.add(agent);
        }
        return chosen;
    }

    private static List<AgentInfo> candidates(Placement placement, List<AgentInfo> agents) {
        if (agents.isEmpty()) {
            throw new IllegalArgumentException("no agent is registered in the pool: start canopy agent on the hosts"
                    + " (with the job's secret and ZooKeeper), or spawn with local agents");
        }
        List<AgentInfo> candidates = agents;
        if (placement instanceof Placement.OnHosts hosts) {
            candidates = agents.stream().filter(agent -> hosts.hosts().contains(agent.host())).toList();
        } else if (placement instanceof Placement.AtSites sites) {
            candidates = agents.stream().filter(agent -> sites.sites().contains(agent.site())).toList();
        }
        if (candidates.isEmpty()) {
            Set<String> known = new TreeSet<>();
            agents.forEach(agent -> known.add(agent.agent() + " (host " + agent.host() + ", site " + agent.site() + ")"));
            throw new IllegalArgumentException("no agent fits the placement " + placement + "; the pool's agents are "
                    + known);
        }
        return candidates;
    }
}
