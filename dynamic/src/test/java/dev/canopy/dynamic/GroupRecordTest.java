package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the roots exchange is checked field by field, and sealed so that it cannot be forged or moved. */
class GroupRecordTest {

    private static Member member(String id, String site, int port) {
        return new Member(NodeId.of(id), new Coordinates("wan", site, site + "-lan", site + "-c", site + "-h"),
                new NodeAddress("127.0.0.1", port, port + 1));
    }

    private static final GroupRecord RECORD = new GroupRecord("p0/c1", 1,
            List.of(member("a-0", "alpha", 40000), member("a-1", "beta", 40010)), true);

    private static GroupRecord decode(JsonObject json) {
        return GroupRecord.fromJson(ZnodeJson.parse(json.encode().getBytes(StandardCharsets.UTF_8), "/test"));
    }

    @Test
    void roundTrips() {
        assertThat(decode(RECORD.toJson())).isEqualTo(RECORD);
    }

    @Test
    void refusesEveryMalformation() {
        JsonObject json = RECORD.toJson();
        assertThatThrownBy(() -> decode(json.copy().put("members", new JsonArray()))).isInstanceOf(MalformedZnodeException.class)
                .hasMessageContaining("lists 0 members");
        JsonArray twice = json.getJsonArray("members").copy().add(json.getJsonArray("members").getJsonObject(0));
        assertThatThrownBy(() -> decode(json.copy().put("members", twice))).hasMessageContaining("twice");
        JsonArray badPort = json.getJsonArray("members").copy();
        badPort.getJsonObject(0).getJsonObject("address").put("tcpPort", 70000);
        assertThatThrownBy(() -> decode(json.copy().put("members", badPort))).isInstanceOf(MalformedZnodeException.class);
        assertThatThrownBy(() -> decode(json.copy().put("context", -1))).isInstanceOf(MalformedZnodeException.class);
        assertThatThrownBy(() -> decode(json.copy().put("group", "line\nbreak"))).isInstanceOf(MalformedZnodeException.class);
        assertThatThrownBy(() -> decode(json.copy().put("links", "ssl"))).isInstanceOf(MalformedZnodeException.class)
                .hasMessageContaining("links 'ssl'");
        JsonObject noMembers = json.copy();
        noMembers.remove("members");
        assertThatThrownBy(() -> decode(noMembers)).hasMessageContaining("members");
    }

    @Test
    void groupsThatDisagreeOnTlsAreRefusedNamingTheOption() {
        GroupRecord plain = new GroupRecord("p9/c1", 1, List.of(member("c-0", "gamma", 40020)), false);
        assertThatThrownBy(() -> GroupRecord.requireSameLinks(RECORD, plain)).isInstanceOf(InterCommunicatorException.class)
                .hasMessageContaining("with TLS and the other group without").hasMessageContaining("--tls")
                .hasMessageContaining("DynamicOptions.withTls");
        assertThatThrownBy(() -> GroupRecord.requireSameLinks(plain, RECORD)).hasMessageContaining("without TLS and the other group with");
        GroupRecord.requireSameLinks(RECORD, RECORD);
    }

    @Test
    void aSealIsBoundToTheSecretAndThePath() {
        NameRecordSeal seal = new NameRecordSeal(JobSecret.generate());
        byte[] sealed = seal.seal("/a", RECORD.toJson());
        assertThat(GroupRecord.fromJson(seal.open("/a", sealed))).isEqualTo(RECORD);
        assertThatThrownBy(() -> seal.open("/b", sealed)).hasMessageContaining("not sealed with this job's secret");
        assertThatThrownBy(() -> new NameRecordSeal(JobSecret.generate()).open("/a", sealed))
                .hasMessageContaining("not sealed with this job's secret");
    }
}
