package dev.canopy.dashboard.model;

import dev.canopy.gridconfig.Level;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code /api/grid}: the members with rank, site, coordinates and state, and the sites with their members. */
public final class GridJson {

    private GridJson() {
    }

    public static JsonObject of(DashboardState state) {
        JobSnapshot snapshot = state.snapshot();
        JsonArray members = new JsonArray();
        Map<String, JsonObject> sites = new LinkedHashMap<>();
        for (GridMember member : snapshot.members()) {
            members.add(member.toJson());
            sites.computeIfAbsent(member.site(), site -> new JsonObject().put("name", site)
                            .put("wan_group", member.member().coordinates().wanGroup()).put("ranks", new JsonArray()))
                    .getJsonArray("ranks").add(member.rank());
        }
        JsonArray levels = new JsonArray();
        for (Level level : Level.values()) {
            levels.add(level.configName());
        }
        return new JsonObject()
                .put("job", snapshot.job())
                .put("started", snapshot.started())
                .put("source_status", state.sourceStatus())
                .put("levels", levels)
                .put("sites", new JsonArray(sites.values().stream().toList()))
                .put("members", members);
    }
}
