package dev.canopy.cli.config;

import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.HostSlots;
import dev.canopy.gridconfig.model.Link;
import dev.canopy.gridconfig.model.LinkDirection;
import dev.canopy.gridconfig.model.Subjob;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The JSON form of a model printed by {@code canopy config show --json}. Its keys are a contract
 * (docs/grid-config.md): name, default_rtt_ms, levels, thresholds_ms, subjobs, links, processes.
 */
final class GridModelJson {

    private GridModelJson() {
    }

    static JsonObject of(GridModel grid) {
        JsonObject levels = new JsonObject();
        for (Level level : Level.values()) {
            levels.put(level.configName(), grid.algorithmAt(level).configName());
        }
        JsonObject thresholds = new JsonObject();
        for (Level level : List.of(Level.HOST, Level.CLUSTER, Level.LAN, Level.LIGHT_WAN)) {
            thresholds.put(level.configName(), grid.thresholds().of(level).orElseThrow());
        }
        return new JsonObject()
                .put("name", grid.name())
                .put("default_rtt_ms", grid.defaultRttMs())
                .put("levels", levels)
                .put("thresholds_ms", thresholds)
                .put("subjobs", array(grid.subjobs().stream().map(GridModelJson::subjob).toList()))
                .put("links", array(grid.links().stream().map(GridModelJson::link).toList()))
                .put("processes", grid.processCount());
    }

    private static JsonObject subjob(Subjob subjob) {
        JsonObject environment = new JsonObject();
        subjob.environment().forEach(environment::put);
        JsonObject gram = new JsonObject();
        subjob.gram().forEach((name, values) -> gram.put(name, array(values)));
        return new JsonObject()
                .put("label", subjob.label())
                .put("count", subjob.count())
                .put("hosts", array(subjob.hosts().stream().map(GridModelJson::host).toList()))
                .put("wan_group", subjob.wanGroup())
                .put("site", subjob.site())
                .put("lan_id", subjob.lanId())
                .put("cluster", subjob.cluster())
                .put("fabric", subjob.fabric().configName())
                .put("uplink_mbps", orNull(subjob.uplinkMbps()))
                .put("nic_mbps", orNull(subjob.nicMbps()))
                .put("environment", environment)
                .put("gram", gram);
    }

    private static JsonObject host(HostSlots host) {
        return new JsonObject().put("name", host.name()).put("slots", host.slots());
    }

    private static JsonObject link(Link link) {
        return new JsonObject()
                .put("a", link.a())
                .put("b", link.b())
                .put("rtt_ms", link.rttMs())
                .put("jitter_ms", link.jitterMs())
                .put("loss", link.loss())
                .put("bandwidth_mbps", orNull(link.bandwidthMbps()))
                .put("one_way", link.direction() == LinkDirection.ONE_WAY);
    }

    /**
     * Built element by element: {@code new JsonArray(List)} makes javac resolve the {@code Buffer}
     * overload, whose Vert.x codegen annotations are not on the classpath (a warning, so a build error).
     */
    private static JsonArray array(List<?> values) {
        JsonArray array = new JsonArray();
        values.forEach(array::add);
        return array;
    }

    /** Unlimited bandwidth is JSON null. */
    private static Double orNull(OptionalDouble value) {
        return value.isPresent() ? value.getAsDouble() : null;
    }
}
