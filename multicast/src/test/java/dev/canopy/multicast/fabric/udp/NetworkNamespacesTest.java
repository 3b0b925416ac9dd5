package dev.canopy.multicast.fabric.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Stale namespaces are recognised by name: only this class's, with the creating process's id. */
class NetworkNamespacesTest {

    @Test
    void theOwnerIsReadFromNamesOfThisClassOnly() {
        assertThat(NetworkNamespaces.ownerOf("canopy-mc-4242-1-h3")).isEqualTo(OptionalLong.of(4242));
        assertThat(NetworkNamespaces.ownerOf("canopy-mc-4242-2-br")).isEqualTo(OptionalLong.of(4242));
        assertThat(NetworkNamespaces.ownerOf("cmc1a2b-h0")).isEmpty();
        assertThat(NetworkNamespaces.ownerOf("canopy-mc-x-1-br")).isEmpty();
        assertThat(NetworkNamespaces.ownerOf("someone-elses")).isEmpty();
    }

    @Test
    void hostAddressesStayInTheirOwnSubnet() {
        assertThat(NetworkNamespaces.addressOf(0)).isEqualTo("10.213.0.1");
        assertThat(NetworkNamespaces.addressOf(15)).isEqualTo("10.213.0.16");
    }
}
