package dev.canopy.multicast.internal.fabric.udp;

import dev.canopy.multicast.internal.fabric.MulticastGroup;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * The {@code udp} fabric: IPv4 multicast on one interface.
 *
 * @param interfaceAddress the member's IPv4 address (its advertised address); it names the interface that
 *                         joins the groups and sends
 * @param port             the UDP port of every group
 * @param ttl              IP_MULTICAST_TTL: 1 keeps datagrams on the local link
 * @param mtu              the largest datagram, 1472 by default (Ethernet's 1500 less the IPv4 and UDP headers,
 *                         so nothing is fragmented)
 * @param groupBase        the first group address; group {@code id} is {@code groupBase + id}, which must stay in
 *                         the administratively scoped 239.0.0.0/8
 */
public record UdpFabricOptions(InetAddress interfaceAddress, int port, int ttl, int mtu, InetAddress groupBase) {

    public static final int DEFAULT_PORT = 45_700;
    public static final int DEFAULT_MTU = 1472;
    /**
     * The largest UDP payload over IPv4; the multicast bcast layer's datagrams by default (JGroups' UDP transport
     * bundles up to 64 KB too), which the kernel sends as IP fragments.
     */
    public static final int MAX_MTU = 65_507;

    public UdpFabricOptions {
        Objects.requireNonNull(interfaceAddress, "interfaceAddress");
        Objects.requireNonNull(groupBase, "groupBase");
        if (!(interfaceAddress instanceof Inet4Address) || interfaceAddress.isAnyLocalAddress()) {
            throw new IllegalArgumentException("udp fabric interface address " + interfaceAddress
                    + " must be the member's own IPv4 address, not a wildcard");
        }
        if (!isAdminScoped(groupBase)) {
            throw new IllegalArgumentException("udp fabric group base " + groupBase.getHostAddress()
                    + " must be an IPv4 address in 239.0.0.0/8 (administratively scoped)");
        }
        if (port < 1 || port > 65_535 || ttl < 1 || ttl > 255 || mtu < 64 || mtu > MAX_MTU) {
            throw new IllegalArgumentException("udp fabric port " + port + " (1-65535), ttl " + ttl + " (1-255), mtu "
                    + mtu + " (64-65507) out of range");
        }
    }

    /** These options with {@code newMtu}-byte datagrams. */
    public UdpFabricOptions withMtu(int newMtu) {
        return new UdpFabricOptions(interfaceAddress, port, ttl, newMtu, groupBase);
    }

    /** Throws, naming the range, unless {@code mtu} is a datagram size the fabric takes (64 to 65,507 bytes). */
    public static void checkMtu(int mtu) {
        if (mtu < 64 || mtu > MAX_MTU) {
            throw new IllegalArgumentException("udp fabric mtu " + mtu + " out of range: 64 to " + MAX_MTU
                    + " bytes (the largest UDP payload)");
        }
    }

    /** Port 45700, TTL 1, MTU 1472, groups from 239.192.0.0 on the interface with {@code interfaceAddress}. */
    public static UdpFabricOptions on(InetAddress interfaceAddress) {
        return new UdpFabricOptions(interfaceAddress, DEFAULT_PORT, 1, DEFAULT_MTU, address(239, 192, 0, 0));
    }

    /**
     * Where {@code group}'s datagrams go and are received: its leased address and port when it has one (no other
     * group of any job holds them meanwhile), else {@link #addressOf} at {@link #port()}.
     */
    public InetSocketAddress socketAddressOf(MulticastGroup group) {
        return group.address().orElseGet(() -> new InetSocketAddress(addressOf(group), port));
    }

    /** The IPv4 address of an unleased {@code group}: {@code groupBase + id}, checked to stay in 239.0.0.0/8. */
    public InetAddress addressOf(MulticastGroup group) {
        byte[] base = groupBase.getAddress();
        long value = ((base[0] & 0xFFL) << 24 | (base[1] & 0xFFL) << 16 | (base[2] & 0xFFL) << 8 | (base[3] & 0xFFL))
                + group.id();
        InetAddress address = address((int) (value >>> 24) & 0xFF, (int) (value >>> 16) & 0xFF,
                (int) (value >>> 8) & 0xFF, (int) value & 0xFF);
        if (value > 0xEFFF_FFFFL || !isAdminScoped(address)) {
            throw new IllegalArgumentException("multicast group " + group.id() + " from base "
                    + groupBase.getHostAddress() + " leaves 239.0.0.0/8");
        }
        return address;
    }

    private static boolean isAdminScoped(InetAddress address) {
        return address instanceof Inet4Address && (address.getAddress()[0] & 0xFF) == 239;
    }

    private static InetAddress address(int a, int b, int c, int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
