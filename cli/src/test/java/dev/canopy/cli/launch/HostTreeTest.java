package dev.canopy.cli.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.gridconfig.internal.hosts.HostGrid;
import dev.canopy.gridconfig.internal.hosts.Hostfile;
import dev.canopy.gridconfig.internal.hosts.SiteRule;
import dev.canopy.gridconfig.model.GridModel;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class HostTreeTest {

    private static GridModel grid(String hostfile) {
        return HostGrid.levelFile(Hostfile.parse(hostfile, "hosts"), SiteRule.parse("domain"), "test", "test")
                .grid().orElseThrow();
    }

    @Test
    void eachHostRunsTheProcessesTheLauncherWouldPutThereInRankOrder() {
        List<HostTree> roots = HostTree.of(grid("a.x slots=2\nb.y slots=1\nc.x slots=3\n"), 32);

        assertThat(roots).extracting(HostTree::host).containsExactly("a.x", "b.y", "c.x");
        assertThat(roots).extracting(HostTree::processes).containsExactly(List.of(0, 1), List.of(2), List.of(3, 4, 5));
        assertThat(roots).allSatisfy(root -> assertThat(root.children()).isEmpty());
    }

    @Test
    void beyondTheFanOutTheHostsAlreadyStartedStartTheOthers() {
        String hostfile = IntStream.range(0, 10).mapToObj(i -> "n" + i + ".site").collect(Collectors.joining("\n"));
        List<HostTree> roots = HostTree.of(grid(hostfile), 2);

        // The launcher starts n0 and n1; host i starts hosts 2(i+1) and 2(i+1)+1.
        assertThat(roots).extracting(HostTree::host).containsExactly("n0.site", "n1.site");
        assertThat(roots.get(0).children()).extracting(HostTree::host).containsExactly("n2.site", "n3.site");
        assertThat(roots.get(1).children()).extracting(HostTree::host).containsExactly("n4.site", "n5.site");
        assertThat(roots.get(0).children().get(0).children()).extracting(HostTree::host)
                .containsExactly("n6.site", "n7.site");
        assertThat(roots.stream().flatMap(HostTree::allHosts)).hasSize(10).doesNotHaveDuplicates();
        assertThat(roots.stream().flatMap(HostTree::allProcesses)).containsExactlyInAnyOrderElementsOf(
                IntStream.range(0, 10).boxed().toList());
    }

    @Test
    void aPlanTreeReadFromTheWireIsCheckedAgainstTheJob() {
        HostTree tree = HostTree.of(grid("a.x slots=2\nb.y\n"), 1).get(0);
        assertThat(HostTree.fromJson(tree.toJson(), 3)).isEqualTo(tree);

        assertThatThrownBy(() -> HostTree.fromJson(tree.toJson(), 2)).hasMessageContaining("process 2 is not an index below 2");
        assertThatThrownBy(() -> HostTree.fromJson(tree.toJson().put("host", "-oProxyCommand=sh"), 3))
                .hasMessageContaining("not a host name");
    }
}
