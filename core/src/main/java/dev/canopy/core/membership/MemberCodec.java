package dev.canopy.core.membership;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The JSON stored in ZooKeeper: one member per member znode, and the member list of the start record.
 * <pre>
 * {"id":"n1","coordinates":{"wanGroup":..,"site":..,"lanId":..,"cluster":..,"host":..},
 *  "address":{"host":"127.0.0.1","tcpPort":40001,"udpPort":40002}}
 * </pre>
 */
final class MemberCodec {

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
        return fromJson(parse(data, where), where);
    }

    static List<Member> decodeAll(byte[] data, String where) {
        JsonArray array = parse(data, where).getJsonArray("members");
        if (array == null) {
            throw new MalformedZnodeException(where, "has no \"members\" array");
        }
        List<Member> members = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            members.add(fromJson(array.getJsonObject(i), where + " members[" + i + "]"));
        }
        return members;
    }

    private static JsonObject toJson(Member member) {
        Coordinates c = member.coordinates();
        NodeAddress a = member.address();
        return new JsonObject()
                .put("id", member.id().value())
                .put("coordinates", new JsonObject().put("wanGroup", c.wanGroup()).put("site", c.site())
                        .put("lanId", c.lanId()).put("cluster", c.cluster()).put("host", c.host()))
                .put("address", new JsonObject().put("host", a.host()).put("tcpPort", a.tcpPort())
                        .put("udpPort", a.udpPort()));
    }

    private static JsonObject parse(byte[] data, String where) {
        if (data == null || data.length == 0) {
            throw new MalformedZnodeException(where, "is empty");
        }
        try {
            return new JsonObject(Buffer.buffer(data));
        } catch (DecodeException e) {
            throw new MalformedZnodeException(where, "is not a JSON object: " + e.getMessage());
        }
    }

    private static Member fromJson(JsonObject json, String where) {
        try {
            JsonObject c = json.getJsonObject("coordinates");
            JsonObject a = json.getJsonObject("address");
            if (c == null || a == null) {
                throw new MalformedZnodeException(where, "lacks \"coordinates\" or \"address\"");
            }
            return new Member(
                    NodeId.of(json.getString("id")),
                    new Coordinates(c.getString("wanGroup"), c.getString("site"), c.getString("lanId"),
                            c.getString("cluster"), c.getString("host")),
                    new NodeAddress(a.getString("host"), a.getInteger("tcpPort"), a.getInteger("udpPort")));
        } catch (ClassCastException | NullPointerException | IllegalArgumentException e) {
            if (e instanceof MalformedZnodeException malformed) {
                throw malformed;
            }
            throw new MalformedZnodeException(where, "has a bad field: " + e.getMessage());
        }
    }

    /** A znode written by something other than a Canopy node of this version. */
    static final class MalformedZnodeException extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        MalformedZnodeException(String where, String problem) {
            super("ZooKeeper znode " + where + " " + problem
                    + " (was it written by another program or another Canopy version? use a fresh job name)");
        }
    }
}
