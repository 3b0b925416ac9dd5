package dev.canopy.core.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MessageLimitsTest {

    @Test
    void eachPeerGetsItsShareOfTheTotalWithinThePerPeerLimitButNeverLessThanTheInitialCredit() {
        MessageLimits defaults = MessageLimits.defaults();
        assertThat(defaults.windowPerPeer(1)).isEqualTo(8 << 20);
        assertThat(defaults.windowPerPeer(15)).isEqualTo((64 << 20) / 15);
        assertThat(defaults.windowPerPeer(1000)).isEqualTo(FlowProtocol.INITIAL_CREDIT);
    }

    @Test
    void limitsThatCannotWorkAreRefusedWithTheReason() {
        assertThatThrownBy(() -> new MessageLimits(FlowProtocol.INITIAL_CREDIT - 1, 64 << 20, 0))
                .hasMessageContaining("before the receiver's first grant");
        assertThatThrownBy(() -> new MessageLimits(8 << 20, 4 << 20, 0))
                .hasMessageContaining("is below the limit per peer");
        assertThatThrownBy(() -> new MessageLimits(8 << 20, 64 << 20, (2 << 20) + 1))
                .hasMessageContaining("a quarter of the limit per peer");
    }
}
