package dev.canopy.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.node.JobId;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every record that crosses ZooKeeper or a pipe round-trips, and hostile data is refused naming the field. */
class ZnodeCodecsTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void recordsRoundTrip() {
        AgentInfo agent = new AgentInfo("a-1", "node7", "kisti-a", 3, 2);
        assertThat(AgentInfo.decode(agent.encode(), "/x")).isEqualTo(agent);

        ChildState state = new ChildState(4, ChildState.State.EXITED, 1234, "exit status 7");
        assertThat(ChildState.decode(state.encode(), "/x")).isEqualTo(state);

        String level = GridConfigs.print(ChildGrid.of(GridConfigs.defaultGrid(), "kids", Map.of("kut-a", 2)));
        SpawnRequest request = new SpawnRequest(JobId.of("kids"), level, List.of(new SpawnRequest.Process(0, "demo.Worker",
                List.of("", "x y")), new SpawnRequest.Process(1, "demo.Other", List.of())), true, Map.of("canopy.parent.port", "ns/p1"));
        assertThat(SpawnRequest.decode(request.encode(), "/x")).isEqualTo(request);

        ChildBinding binding = new ChildBinding(JobId.of("kids"), 1, Path.of("/tmp/kids.rsl"), "127.0.0.1:2181",
                Path.of("/tmp/job.key"), "demo.Worker", List.of("", "--n", "3"), false, Map.of("canopy.x", "1"));
        assertThat(ChildBinding.decode(binding.encode())).isEqualTo(binding);
    }

    @Test
    void hostileAgentZnodesAreRefusedNamingTheField() {
        assertThatThrownBy(() -> AgentInfo.decode(bytes("{\"agent\":\"../x\",\"host\":\"h\",\"site\":\"s\",\"load\":0,\"warm\":0}"), "/a"))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining("agent");
        assertThatThrownBy(() -> AgentInfo.decode(bytes("{\"agent\":\"a\",\"host\":\"h\",\"site\":\"s\",\"load\":-1,\"warm\":0}"), "/a"))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining("load");
        assertThatThrownBy(() -> AgentInfo.decode(bytes("[1]"), "/a")).isInstanceOf(MalformedZnodeException.class);
        assertThatThrownBy(() -> AgentInfo.decode(new byte[0], "/a")).isInstanceOf(MalformedZnodeException.class);
    }

    @Test
    void hostileRequestsAreRefusedNamingTheField() {
        String level = GridConfigs.print(ChildGrid.of(GridConfigs.defaultGrid(), "kids", Map.of("kut-a", 1)));
        assertThatThrownBy(() -> SpawnRequest.decode(bytes("{\"job\":\"kids\",\"level\":\"( &(count = x\","
                + "\"processes\":[],\"emulateWan\":false,\"properties\":{}}"), "/r"))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining("not a valid level file");
        String prefix = "{\"job\":\"kids\",\"level\":" + Json.encode(level) + ",";
        String one = "\"processes\":[{\"process\":0,\"program\":\"p\",\"arguments\":[]}],";
        assertThat(SpawnRequest.decode(bytes(prefix + one + "\"emulateWan\":false,\"properties\":{}}"), "/r").processes())
                .hasSize(1);
        assertThatThrownBy(() -> SpawnRequest.decode(bytes(prefix + "\"processes\":[],\"emulateWan\":false,\"properties\":{}}"), "/r"))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining("processes");
        assertThatThrownBy(() -> SpawnRequest.decode(bytes(prefix + one.replace("\"process\":0", "\"process\":1")
                + "\"emulateWan\":false,\"properties\":{}}"), "/r"))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining("process").hasMessageContaining("0..0");
        assertThatThrownBy(() -> SpawnRequest.decode(bytes(prefix + one + "\"emulateWan\":\"yes\",\"properties\":{}}"), "/r"))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining("emulateWan");
        assertThatThrownBy(() -> SpawnRequest.decode(bytes(prefix + one + "\"emulateWan\":false,\"properties\":{\"java.library.path\":\"/x\"}}"),
                "/r")).isInstanceOf(MalformedZnodeException.class).hasMessageContaining("not a canopy.* name");
        assertThatThrownBy(() -> SpawnRequest.decode(bytes(prefix.replace("\"kids\"", "\"a/b\"") + one
                + "\"emulateWan\":false,\"properties\":{}}"), "/r")).isInstanceOf(MalformedZnodeException.class).hasMessageContaining("job");
    }

    @Test
    void hostileStatesAndBindingsAreRefused() {
        assertThatThrownBy(() -> ChildState.decode(bytes("{\"process\":0,\"state\":\"DONE\",\"pid\":1,\"detail\":\"x\"}"), "/s"))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining("RUNNING, EXITED, FAILED");
        assertThatThrownBy(() -> ChildState.decode(bytes("{\"process\":-2,\"state\":\"RUNNING\",\"pid\":1}"), "/s"))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining("process");
        assertThatThrownBy(() -> ChildBinding.decode("{\"job\":\"k\",\"process\":0}"))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining("levelFile");
        assertThatThrownBy(() -> ChildBinding.decode("not json")).isInstanceOf(MalformedZnodeException.class);
    }

    @Test
    void theChildGridKeepsThePlacedSitesTheirAttributesAndLinks() {
        GridModel parent = GridConfigs.defaultGrid();
        GridModel child = ChildGrid.of(parent, "kids", new LinkedHashMap<>(Map.of("kisti-b", 3)));

        assertThat(child.processCount()).isEqualTo(3);
        assertThat(child.sites()).extracting(site -> site.name()).containsExactly("kisti-b");
        GridModel two = ChildGrid.of(parent, "kids", linked("kut-a", 1, "kisti-b", 2));
        assertThat(two.linkBetween("kut-a", "kisti-b").rttMs()).isEqualTo(parent.linkBetween("kut-a", "kisti-b").rttMs());
        assertThat(two.processes().get(0).coordinates().site()).isEqualTo("kut-a");
        assertThatThrownBy(() -> ChildGrid.of(parent, "kids", Map.of("mars", 1))).hasMessageContaining("site mars is not in grid");
    }

    private static Map<String, Integer> linked(String a, int countA, String b, int countB) {
        Map<String, Integer> map = new LinkedHashMap<>();
        map.put(a, countA);
        map.put(b, countB);
        return map;
    }
}
