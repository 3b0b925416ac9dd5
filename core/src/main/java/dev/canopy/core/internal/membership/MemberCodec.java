package dev.canopy.core.internal.membership;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The JSON stored in ZooKeeper: one member per member znode, and the member list of the start record.
 * <pre>
 * {"id":"n1","coordinates":{"wanGroup":..,"site":..,"lanId":..,"cluster":..,"host":..},
 *  "address":{"host":"127.0.0.1","tcpPort":40001,"udpPort":40002}}
 * </pre>
 * Decoding checks every field ({@link ZnodeJson}) and throws {@link MalformedZnodeException}. Public for the
 * modules that store members elsewhere (the dynamic module's port records).
 */
public final class MemberCodec {

    /** More members than any job has; a start record beyond it is malformed. */
    static final int MAX_MEMBERS = 65_536;

    private MemberCodec() {
    }

    static byte[] encode(Member member) {
        return toJson(member).toBuffer().getBytes();
    }

    static byte[] encodeAll(Collection<Member> members) {
        JsonArray array = new JsonArray();
        members.forEach(member -> array.add(toJson(member)));
        return new JsonObject().put("members", array).toBuffer().getBytes();
    }

    /** Decodes one member znode; {@code where} names the znode in the error. */
    static Member decode(byte[] data, String where) {
        return fromJson(ZnodeJson.parse(data, where));
    }

    /** Decodes the start record: at most {@value #MAX_MEMBERS} members, each id once. */
    static List<Member> decodeAll(byte[] data, String where) {
        JsonArray array = ZnodeJson.parse(data, where).array("members");
        if (array.size() > MAX_MEMBERS) {
            throw new MalformedZnodeException(where, "lists " + array.size() + " members, more than " + MAX_MEMBERS);
        }
        List<Member> members = new ArrayList<>(array.size());
        Set<NodeId> ids = new HashSet<>();
        for (int i = 0; i < array.size(); i++) {
            Member member = fromJson(ZnodeJson.of(array.getValue(i), where + " members[" + i + "]"));
            if (!ids.add(member.id())) {
                throw new MalformedZnodeException(where, "lists member " + member.id() + " twice");
            }
            members.add(member);
        }
        return members;
    }

    public static JsonObject toJson(Member member) {
        Coordinates c = member.coordinates();
        NodeAddress a = member.address();
        return new JsonObject()
                .put("id", member.id().value())
                .put("coordinates", new JsonObject().put("wanGroup", c.wanGroup()).put("site", c.site())
                        .put("lanId", c.lanId()).put("cluster", c.cluster()).put("host", c.host()))
                .put("address", new JsonObject().put("host", a.host()).put("tcpPort", a.tcpPort())
                        .put("udpPort", a.udpPort()));
    }

    /**
     * Every field checked before use: names are 1 to 255 characters without control characters
     * (they end up in log lines), ports are integers in 1..65535, the id a valid {@link NodeId}.
     */
    public static Member fromJson(ZnodeJson json) {
        ZnodeJson c = json.object("coordinates");
        ZnodeJson a = json.object("address");
        String id = json.name("id");
        try {
            return new Member(NodeId.of(id),
                    new Coordinates(c.name("wanGroup"), c.name("site"), c.name("lanId"), c.name("cluster"), c.name("host")),
                    new NodeAddress(a.name("host"), (int) a.integer("tcpPort", 1, 65_535),
                            (int) a.integer("udpPort", 1, 65_535)));
        } catch (MalformedZnodeException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(json.where(), "has a bad field: " + MalformedZnodeException.quote(e.getMessage()));
        }
    }
}
