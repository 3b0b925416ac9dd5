package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code --host} and {@code --advertise} against a made-up machine with the interfaces 127.0.0.1 and
 * 10.1.2.3, and a made-up resolver: no name is looked up for real, no packet leaves the machine.
 */
class NodeAddressesTest {

    private static final InetAddress LOOPBACK = address(127, 0, 0, 1);
    private static final InetAddress LAN = address(10, 1, 2, 3);
    private static final InetAddress ELSEWHERE = address(192, 0, 2, 7);
    private static final InetAddress WILDCARD = address(0, 0, 0, 0);
    private static final Map<String, InetAddress[]> NAMES = Map.of(
            "127.0.0.1", new InetAddress[] {LOOPBACK},
            "10.1.2.3", new InetAddress[] {LAN},
            "grid-host-7", new InetAddress[] {LAN},
            "192.0.2.7", new InetAddress[] {ELSEWHERE},
            "0.0.0.0", new InetAddress[] {WILDCARD});

    private final NodeAddresses addresses = new NodeAddresses(NodeAddressesTest::resolve, () -> List.of(LOOPBACK, LAN));

    @Test
    void theDefaultIsLoopbackBoundAndAdvertised() {
        assertThat(addresses.check(NodeAddresses.DEFAULT_HOST, Optional.empty()))
                .isEqualTo(new NodeAddresses.Usable("127.0.0.1", "127.0.0.1"));
    }

    @Test
    void aNameOfThisMachineBecomesItsAddress() {
        assertThat(addresses.check("grid-host-7", Optional.empty()))
                .isEqualTo(new NodeAddresses.Usable("10.1.2.3", "10.1.2.3"));
        assertThat(addresses.check("10.1.2.3", Optional.of("grid-host-7")))
                .as("advertising the bound address by name")
                .isEqualTo(new NodeAddresses.Usable("10.1.2.3", "10.1.2.3"));
    }

    @Test
    void everyInterfaceIsBoundAndTheGivenOneAdvertised() {
        assertThat(addresses.check("0.0.0.0", Optional.of("grid-host-7")))
                .isEqualTo(new NodeAddresses.Usable("0.0.0.0", "10.1.2.3"));
    }

    @Test
    void aHostThatDoesNotResolveIsRefusedNamingTheOption() {
        assertThat(refusal("no-such-host.invalid", Optional.empty()))
                .contains("--host no-such-host.invalid does not resolve").contains("--host 127.0.0.1");
        assertThat(refusal("0.0.0.0", Optional.of("no-such-host.invalid")))
                .contains("--advertise no-such-host.invalid does not resolve");
        assertThat(refusal(" ", Optional.empty())).contains("does not resolve");
    }

    @Test
    void anAddressOfAnotherMachineIsRefusedListingThisMachinesAddresses() {
        assertThat(refusal("192.0.2.7", Optional.empty()))
                .contains("--host 192.0.2.7 is not an address of this machine (it has 127.0.0.1, 10.1.2.3)")
                .contains("--host 0.0.0.0 with --advertise ADDRESS");
        assertThat(refusal("0.0.0.0", Optional.of("192.0.2.7")))
                .contains("--advertise 192.0.2.7 is not an address of this machine");
    }

    @Test
    void everyInterfaceNeedsOneAddressToAdvertise() {
        assertThat(refusal("0.0.0.0", Optional.empty()))
                .contains("--host 0.0.0.0 listens on every interface").contains("add --advertise ADDRESS");
        assertThat(refusal("0.0.0.0", Optional.of("0.0.0.0")))
                .contains("--advertise 0.0.0.0 is a wildcard address");
    }

    @Test
    void aSpecificHostCanOnlyBeAdvertisedAsItself() {
        assertThat(refusal("127.0.0.1", Optional.of("10.1.2.3")))
                .contains("--advertise 10.1.2.3 is not the address --host 127.0.0.1 binds (127.0.0.1)")
                .contains("leave out --advertise, or bind every interface with --host 0.0.0.0");
    }

    private String refusal(String host, Optional<String> advertise) {
        NodeAddresses.Checked checked = addresses.check(host, advertise);
        assertThat(checked).isInstanceOf(NodeAddresses.Refused.class);
        return ((NodeAddresses.Refused) checked).message();
    }

    private static InetAddress[] resolve(String host) throws UnknownHostException {
        InetAddress[] known = NAMES.get(host);
        if (known == null) {
            throw new UnknownHostException(host);
        }
        return known;
    }

    private static InetAddress address(int a, int b, int c, int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
