package dev.canopy.dynamic;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.MemberCodec;
import dev.canopy.core.internal.membership.ZnodeJson;
import dev.canopy.core.node.Member;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a root tells the other group's root about its group when they connect: the group's id (its job and
 * communicator context), its context id and, by local rank, each member's coordinates and the address of its
 * inter-communicator transport; and whether its inter-communicator connections run TLS (both groups must agree,
 * so a mismatch fails the pairing naming the option instead of leaving every connection to be refused). The size
 * is the number of members.
 */
record GroupRecord(String groupId, int contextId, List<Member> members, boolean tls) {

    /** More members than any group has; a record beyond it is malformed. */
    static final int MAX_MEMBERS = 4096;
    private static final String TLS = "tls";
    private static final String PLAIN = "tcp";

    GroupRecord {
        Objects.requireNonNull(groupId, "groupId");
        members = List.copyOf(members);
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a group has at least one member");
        }
    }

    int size() {
        return members.size();
    }

    JsonObject toJson() {
        JsonArray array = new JsonArray();
        members.forEach(member -> array.add(MemberCodec.toJson(member)));
        return new JsonObject().put("group", groupId).put("context", contextId).put("members", array)
                .put("links", tls ? TLS : PLAIN);
    }

    /**
     * Every field checked: a name for the group, a context id, 1 to {@value #MAX_MEMBERS} distinct members and
     * addresses, the links' kind.
     */
    static GroupRecord fromJson(ZnodeJson json) {
        String groupId = json.text("group", 200);
        int contextId = (int) json.integer("context", 0, Integer.MAX_VALUE);
        JsonArray array = json.array("members");
        if (array.isEmpty() || array.size() > MAX_MEMBERS) {
            throw new MalformedZnodeException(json.where(), "lists " + array.size() + " members, not 1 to " + MAX_MEMBERS);
        }
        List<Member> members = new ArrayList<>(array.size());
        Set<Object> seen = new HashSet<>();
        for (int i = 0; i < array.size(); i++) {
            Member member = MemberCodec.fromJson(ZnodeJson.of(array.getValue(i), json.where() + " members[" + i + "]"));
            if (!seen.add(member.id()) || !seen.add(member.address())) {
                throw new MalformedZnodeException(json.where(), "lists member " + member.id() + " or its address twice");
            }
            members.add(member);
        }
        String links = json.name("links");
        if (!links.equals(TLS) && !links.equals(PLAIN)) {
            throw new MalformedZnodeException(json.where(), "has links '" + links + "', not " + TLS + " or " + PLAIN);
        }
        return new GroupRecord(groupId, contextId, members, links.equals(TLS));
    }

    /**
     * Fails naming the option when one group's inter-communicator connections run TLS and the other's do not: their
     * transports would refuse every connection (TLS_PLAINTEXT_PEER, TLS_UNEXPECTED), so say why at once.
     */
    static void requireSameLinks(GroupRecord mine, GroupRecord theirs) {
        if (mine.tls() != theirs.tls()) {
            throw new InterCommunicatorException("this group runs its inter-communicator connections "
                    + (mine.tls() ? "with" : "without") + " TLS and the other group " + (theirs.tls() ? "with" : "without")
                    + " it; run both jobs with --tls (DynamicOptions.withTls, CANOPY_TLS_*; their CAs must trust each"
                    + " other's certificates) or neither");
        }
    }
}
