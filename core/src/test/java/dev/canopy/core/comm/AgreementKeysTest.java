package dev.canopy.core.comm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.Coordinates;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgreementKeysTest {

    private static Member member(String id) {
        return new Member(NodeId.of(id), new Coordinates("w", "s", "l", "c", "h-" + id), new NodeAddress("127.0.0.1", 1000, 1001));
    }

    private final List<Member> siteA = List.of(member("a0"), member("a1"));
    private final List<Member> siteB = List.of(member("b0"), member("b1"));

    @Test
    void siblingCommunicatorsWithOneContextIdGetDifferentKeys() {
        assertThat(new AgreementKeys().next(7, siteA)).isNotEqualTo(new AgreementKeys().next(7, siteB));
    }

    @Test
    void aReusedContextIdWithTheSameMembersGetsTheNextIncarnation() {
        AgreementKeys keys = new AgreementKeys();
        String first = keys.next(7, siteA);
        String second = keys.next(7, siteA);

        assertThat(second).isNotEqualTo(first);
        assertThat(first).endsWith("-0");
        assertThat(second).endsWith("-1").startsWith(first.substring(0, first.length() - 1));
    }

    @Test
    void everyMemberComputesTheSameKeyFromTheSameHistory() {
        AgreementKeys onA0 = new AgreementKeys();
        AgreementKeys onA1 = new AgreementKeys();
        onA0.next(3, siteA);
        onA1.next(3, siteA);

        assertThat(onA0.next(3, siteA)).isEqualTo(onA1.next(3, siteA));
        assertThat(onA0.next(4, siteA)).isNotEqualTo(onA0.next(3, siteA));
    }
}
