package dev.canopy.dashboard.model;

import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.json.JsonObject;
import java.util.Objects;

/** One member of the job with its rank (in the start record's order) and state. */
public record GridMember(int rank, Member member, MemberState state) {

    public GridMember {
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(state, "state");
    }

    public String site() {
        return member.coordinates().site();
    }

    public String id() {
        return member.id().value();
    }

    public JsonObject toJson() {
        Coordinates c = member.coordinates();
        return new JsonObject()
                .put("rank", rank)
                .put("id", id())
                .put("site", c.site())
                .put("coordinates", new JsonObject().put("wan_group", c.wanGroup()).put("site", c.site())
                        .put("lan", c.lanId()).put("cluster", c.cluster()).put("host", c.host()))
                .put("address", member.address().host() + ":" + member.address().tcpPort() + "/" + member.address().udpPort())
                .put("state", state.jsonName());
    }
}
