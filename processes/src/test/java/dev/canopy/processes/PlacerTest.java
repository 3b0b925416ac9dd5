package dev.canopy.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacerTest {

    private static final Map<String, Double> RTT_FROM_ROOT = Map.of("root-site", 0.0, "near", 2.0, "far", 40.0);
    private static final SiteLatency LATENCY = site -> RTT_FROM_ROOT.get(site);

    private static AgentInfo agent(String name, String site, int load) {
        return new AgentInfo(name, "host-" + name, site, load, 0);
    }

    @Test
    void theLeastLoadedAgentTakesEachChildAndTiesGoToTheNearerSite() {
        List<AgentInfo> agents = List.of(agent("f", "far", 0), agent("n", "near", 1), agent("r", "root-site", 3));

        List<AgentInfo> placed = Placer.place(new Placement.Automatic(), agents, 4, LATENCY);

        // f (0 running) takes the first; then f and n both have 1: n is nearer; then n 2 vs f 1: f; then f 2, n 2: n.
        assertThat(placed).extracting(AgentInfo::agent).containsExactly("f", "n", "f", "n");
    }

    @Test
    void repeatedSpawnsSpreadInsteadOfPilingOntoTheFirstAgents() {
        AgentInfo a = agent("a", "near", 0);
        AgentInfo b = agent("b", "near", 0);
        AgentInfo c = agent("c", "far", 0);

        List<AgentInfo> first = Placer.place(new Placement.Automatic(), List.of(a, b, c), 2, LATENCY);
        // The agents now report their load; the next spawn goes where nothing runs yet.
        List<AgentInfo> second = Placer.place(new Placement.Automatic(), List.of(a.withLoad(1), b.withLoad(1), c), 1, LATENCY);

        assertThat(first).extracting(AgentInfo::agent).containsExactly("a", "b");
        assertThat(second).extracting(AgentInfo::agent).containsExactly("c");
    }

    @Test
    void namedSitesAndHostsRestrictTheCandidates() {
        List<AgentInfo> agents = List.of(agent("n", "near", 5), agent("f", "far", 0), agent("r", "root-site", 0));

        assertThat(Placer.place(Placement.atSites("near"), agents, 2, LATENCY)).extracting(AgentInfo::agent)
                .containsExactly("n", "n");
        assertThat(Placer.place(Placement.onHosts("host-f", "host-r"), agents, 3, LATENCY)).extracting(AgentInfo::agent)
                .containsExactly("r", "f", "r");
    }

    @Test
    void noFittingAgentIsAClearError() {
        assertThatThrownBy(() -> Placer.place(new Placement.Automatic(), List.of(), 1, LATENCY))
                .hasMessageContaining("no agent is registered in the pool");
        assertThatThrownBy(() -> Placer.place(Placement.atSites("elsewhere"), List.of(agent("n", "near", 0)), 1, LATENCY))
                .hasMessageContaining("no agent fits").hasMessageContaining("n (host host-n, site near)");
        assertThatThrownBy(() -> Placer.place(new Placement.Automatic(), List.of(agent("n", "near", 0)), 0, LATENCY))
                .hasMessageContaining("at least one");
    }
}
