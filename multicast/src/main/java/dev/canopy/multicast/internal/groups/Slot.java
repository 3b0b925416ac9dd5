package dev.canopy.multicast.internal.groups;

import dev.canopy.gridconfig.model.MulticastRange;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One multicast address and port, named in ZooKeeper as {@code 239.192.0.5:45000}. Names read back from
 * ZooKeeper are parsed strictly: four decimal octets without leading zeros, a port of 1 to 65535, the
 * address in 239.0.0.0/8; anything else is not a slot.
 *
 * @param address the IPv4 address as 32 bits
 */
record Slot(int address, int port) {

    private static final Pattern NAME = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3}):(\\d{1,5})");

    static Slot of(MulticastRange range, long index) {
        return new Slot(range.addressOf(index), range.portOf(index));
    }

    /** The slot named {@code name}, or empty when the name is not one this class writes. */
    static Optional<Slot> parse(String name) {
        Matcher matcher = NAME.matcher(name);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        int address = 0;
        for (int octet = 1; octet <= 4; octet++) {
            int value = Integer.parseInt(matcher.group(octet));
            if (value > 255) {
                return Optional.empty();
            }
            address = address << 8 | value;
        }
        int port = Integer.parseInt(matcher.group(5));
        Slot slot = new Slot(address, port);
        // Leading zeros would give a second name to one slot.
        return port >= 1 && port <= 65_535 && address >>> 24 == 239 && slot.name().equals(name)
                ? Optional.of(slot) : Optional.empty();
    }

    String name() {
        return MulticastRange.dotted(address) + ":" + port;
    }

    InetSocketAddress socketAddress() {
        try {
            InetAddress ip = InetAddress.getByAddress(new byte[] {
                    (byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address});
            return new InetSocketAddress(ip, port);
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
