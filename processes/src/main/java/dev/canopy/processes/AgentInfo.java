package dev.canopy.processes;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What a {@code canopy agent} tells its pool in its ephemeral znode: who it is, where it runs, and its load.
 *
 * @param agent the agent's name in its pool ({@link AgentZnodes#requireName})
 * @param host the host it starts processes on
 * @param site the grid site of that host (the site its children are emulated at)
 * @param load the processes it runs for spawns (warm ones waiting for a binding not counted)
 * @param warm how many warm processes its pool keeps
 */
public record AgentInfo(String agent, String host, String site, int load, int warm) {

    public AgentInfo {
        AgentZnodes.requireName(agent, "agent name");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(site, "site");
        if (load < 0 || warm < 0) {
            throw new IllegalArgumentException("load and warm must be >= 0, got " + load + " and " + warm);
        }
    }

    public AgentInfo withLoad(int newLoad) {
        return new AgentInfo(agent, host, site, newLoad, warm);
    }

    public byte[] encode() {
        return new JsonObject().put("agent", agent).put("host", host).put("site", site).put("load", load).put("warm", warm)
                .encode().getBytes(StandardCharsets.UTF_8);
    }

    /** The agent znode at {@code where}, every field checked. */
    public static AgentInfo decode(byte[] data, String where) {
        ZnodeJson json = ZnodeJson.parse(data, where);
        String agent = json.name("agent");
        try {
            AgentZnodes.requireName(agent, "agent name");
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(where, "field \"agent\": " + e.getMessage());
        }
        return new AgentInfo(agent, json.name("host"), json.name("site"), (int) json.integer("load", 0, Integer.MAX_VALUE),
                (int) json.integer("warm", 0, Integer.MAX_VALUE));
    }
}
