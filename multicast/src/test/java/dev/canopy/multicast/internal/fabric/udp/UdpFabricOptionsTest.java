package dev.canopy.multicast.internal.fabric.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.multicast.internal.fabric.MulticastGroup;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class UdpFabricOptionsTest {

    @Test
    void groupsMapIntoTheAdministrativelyScopedRange() throws Exception {
        UdpFabricOptions options = UdpFabricOptions.on(InetAddress.getByName("10.0.0.1"));
        assertThat(options.addressOf(new MulticastGroup(0)).getHostAddress()).isEqualTo("239.192.0.0");
        assertThat(options.addressOf(new MulticastGroup(258)).getHostAddress()).isEqualTo("239.192.1.2");
        assertThat(options.ttl()).isEqualTo(1);
        assertThat(options.mtu()).isEqualTo(1472);
        assertThatThrownBy(() -> options.addressOf(new MulticastGroup(5_000_000))).hasMessageContaining("leaves 239.0.0.0/8");
    }

    @Test
    void badOptionsNameTheFix() throws Exception {
        InetAddress base = InetAddress.getByName("239.1.0.0");
        assertThatThrownBy(() -> new UdpFabricOptions(InetAddress.getByName("0.0.0.0"), 1, 1, 1472, base))
                .hasMessageContaining("not a wildcard");
        assertThatThrownBy(() -> new UdpFabricOptions(InetAddress.getByName("10.0.0.1"), 1, 1, 1472,
                InetAddress.getByName("224.0.0.1"))).hasMessageContaining("239.0.0.0/8");
        assertThatThrownBy(() -> new UdpFabricOptions(InetAddress.getByName("10.0.0.1"), 1, 0, 1472, base))
                .hasMessageContaining("ttl 0");
    }
}
