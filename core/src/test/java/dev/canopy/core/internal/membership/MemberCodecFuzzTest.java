package dev.canopy.core.internal.membership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.testing.fuzz.DecoderFuzzContract;
import dev.canopy.core.testing.fuzz.FuzzCampaign;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Member znodes and start records as ZooKeeper may hold them after a foreign or broken writer: seeded
 * mutation fuzzing ({@link FuzzCampaign}, with JSON-aware mutations) finds no error but
 * {@link MalformedZnodeException}, and valid records round-trip; plus the rules one by one.
 */
class MemberCodecFuzzTest extends DecoderFuzzContract {

    @Override
    protected Stream<FuzzCampaign<?>> campaigns() {
        return Stream.of(
                FuzzCampaign.of("MemberCodec.decode", MemberCodecFuzzTest::randomMember,
                        member -> Buffer.buffer(MemberCodec.encode(member)),
                        bytes -> MemberCodec.decode(bytes.getBytes(), "/members/x")).rejectingWith(MalformedZnodeException.class).json(),
                FuzzCampaign.<List<Member>>of("MemberCodec.decodeAll", random -> {
                    List<Member> members = new ArrayList<>();
                    for (int i = random.nextInt(4); i >= 0; i--) {
                        members.add(randomMember(random));
                    }
                    java.util.Set<NodeId> ids = new java.util.HashSet<>();
                    return members.stream().filter(member -> ids.add(member.id())).toList();
                }, members -> Buffer.buffer(MemberCodec.encodeAll(members)),
                        bytes -> MemberCodec.decodeAll(bytes.getBytes(), "/start")).rejectingWith(MalformedZnodeException.class).json());
    }

    @Test
    void everyFieldIsCheckedAndTheZnodeNamed() {
        assertRejected("", "/members/a is empty");
        assertRejected("[1]", "is not a JSON object");
        assertRejected(member("\"n1\"", "40001"), null);
        assertRejected(member("\"n 1\"", "40001"), "has a bad field: node id 'n 1'");
        assertRejected(member("\"n1\"", "4294967377"), "field \"tcpPort\" is 4294967377, not an integer in 1..65535");
        assertRejected(member("\"n1\"", "40001.5"), "not an integer in 1..65535");
        assertRejected(member("\"" + "x".repeat(300) + "\"", "40001"), "(300 characters), not a text of 1 to 255");
        assertRejected(member("\"n1\\nINFO forged\"", "40001"), "n1?INFO forged");
        assertThatThrownBy(() -> MemberCodec.decodeAll(("{\"members\":[" + member("\"n1\"", "1") + "," + member("\"n1\"", "1")
                + "]}").getBytes(StandardCharsets.UTF_8), "/start"))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining("/start lists member n1 twice");
        assertThatThrownBy(() -> MemberCodec.decodeAll("{\"members\":[7]}".getBytes(StandardCharsets.UTF_8), "/start"))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining("/start members[0] holds 7, not a JSON object");
    }

    private static void assertRejected(String json, String problem) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        if (problem == null) {
            assertThat(MemberCodec.decode(bytes, "/members/a").id()).isEqualTo(NodeId.of("n1"));
            return;
        }
        assertThatThrownBy(() -> MemberCodec.decode(bytes, "/members/a")).isInstanceOf(MalformedZnodeException.class)
                .hasMessageContaining(problem).hasMessageContaining("/members/a");
    }

    private static String member(String id, String port) {
        return "{\"id\":" + id + ",\"coordinates\":{\"wanGroup\":\"w\",\"site\":\"s\",\"lanId\":\"l\",\"cluster\":\"c\","
                + "\"host\":\"h\"},\"address\":{\"host\":\"127.0.0.1\",\"tcpPort\":" + port + ",\"udpPort\":40002}}";
    }

    private static Member randomMember(SplittableRandom random) {
        return new Member(NodeId.of("n" + random.nextInt(1000)),
                new Coordinates(name(random), name(random), name(random), name(random), name(random)),
                new NodeAddress("127.0.0." + random.nextInt(1, 255), random.nextInt(1, 65_536), random.nextInt(1, 65_536)));
    }

    private static String name(SplittableRandom random) {
        return "x" + Integer.toString(random.nextInt(1 << 20), 36);
    }
}
