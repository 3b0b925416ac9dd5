package dev.canopy.gridconfig.model;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The multicast addresses and ports a grid's jobs may lease for their groups: an IPv4 block inside the
 * administratively scoped 239.0.0.0/8 (RFC 2365) and a range of UDP ports. Slot {@code i} of the range is
 * address {@code i mod addressCount()} at port {@code i / addressCount()}, so the first slots use distinct
 * addresses at the first port, and ports are shared only once every address is taken.
 *
 * @param network   the block's first address, as the 32 bits of an IPv4 address
 * @param prefix    the block's prefix length, 8 to 32
 * @param firstPort the lowest port, 1024 to 65535
 * @param lastPort  the highest port, {@code firstPort} to 65535
 */
public record MulticastRange(int network, int prefix, int firstPort, int lastPort) {

    /** The level-file attribute of the block, {@code (multicast_range = 239.192.0.0/14)}. */
    public static final String RANGE_ATTRIBUTE = "multicast_range";
    /** The level-file attribute of the ports, {@code (multicast_ports = 45000-45999)}. */
    public static final String PORTS_ATTRIBUTE = "multicast_ports";

    private static final int ADMIN_SCOPED_FIRST_OCTET = 239;
    private static final int MIN_PORT = 1024;
    private static final int MAX_PORT = 65_535;
    private static final Pattern CIDR = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})/(\\d{1,2})");
    private static final Pattern PORTS = Pattern.compile("(\\d{1,5})(?:-(\\d{1,5}))?");

    /** 239.192.0.0/14 (the IPv4 organisation-local scope of RFC 2365), ports 45000 to 45999. */
    public static final MulticastRange DEFAULT = parse("239.192.0.0/14", "45000-45999");

    public MulticastRange {
        if (prefix < 8 || prefix > 32) {
            throw new IllegalArgumentException("multicast range prefix /" + prefix + " must be /8 to /32 inside 239.0.0.0/8");
        }
        if (network >>> 24 != ADMIN_SCOPED_FIRST_OCTET) {
            throw new IllegalArgumentException("multicast range " + dotted(network) + "/" + prefix + " is not inside"
                    + " 239.0.0.0/8, the administratively scoped block (RFC 2365); use e.g. 239.192.0.0/14");
        }
        if ((network & ~mask(prefix)) != 0) {
            throw new IllegalArgumentException("multicast range " + dotted(network) + "/" + prefix + " has host bits set;"
                    + " did you mean " + dotted(network & mask(prefix)) + "/" + prefix + "?");
        }
        if (firstPort < MIN_PORT || lastPort > MAX_PORT || firstPort > lastPort) {
            throw new IllegalArgumentException("multicast ports " + firstPort + "-" + lastPort + " must be a range from "
                    + MIN_PORT + " to " + MAX_PORT + ", lowest first (ports below " + MIN_PORT + " need root)");
        }
    }

    /**
     * Reads {@code cidr} ({@code 239.192.0.0/14}) and {@code ports} ({@code 45000-45999}, or one port).
     *
     * @throws IllegalArgumentException naming what is wrong and how to write it
     */
    public static MulticastRange parse(String cidr, String ports) {
        Matcher block = CIDR.matcher(cidr.strip());
        if (!block.matches()) {
            throw new IllegalArgumentException("multicast range \"" + shortened(cidr) + "\" is not an IPv4 block;"
                    + " write it as ADDRESS/PREFIX, e.g. 239.192.0.0/14");
        }
        int network = 0;
        for (int octet = 1; octet <= 4; octet++) {
            network = network << 8 | number(block.group(octet), 255, "multicast range \"" + shortened(cidr) + "\": octet");
        }
        int prefix = number(block.group(5), 32, "multicast range \"" + shortened(cidr) + "\": prefix");
        Matcher range = PORTS.matcher(ports.strip());
        if (!range.matches()) {
            throw new IllegalArgumentException("multicast ports \"" + shortened(ports) + "\" are not a port range;"
                    + " write FIRST-LAST, e.g. 45000-45999, or one port");
        }
        int first = number(range.group(1), MAX_PORT, "multicast port");
        int last = range.group(2) == null ? first : number(range.group(2), MAX_PORT, "multicast port");
        return new MulticastRange(network, prefix, first, last);
    }

    /** The number of addresses in the block, 1 to 2^24. */
    public long addressCount() {
        return 1L << (32 - prefix);
    }

    public int portCount() {
        return lastPort - firstPort + 1;
    }

    /** How many groups can be leased at once: addresses times ports. */
    public long capacity() {
        return addressCount() * portCount();
    }

    /** The address of slot {@code index} (0 to {@link #capacity()} - 1), as 32 bits. */
    public int addressOf(long index) {
        checkIndex(index);
        return network + (int) (index % addressCount());
    }

    /** The port of slot {@code index}. */
    public int portOf(long index) {
        checkIndex(index);
        return firstPort + (int) (index / addressCount());
    }

    /** The slot of {@code address} and {@code port}, or -1 when they are outside this range. */
    public long indexOf(int address, int port) {
        if ((address & mask(prefix)) != network || port < firstPort || port > lastPort) {
            return -1;
        }
        return (long) (port - firstPort) * addressCount() + (Integer.toUnsignedLong(address) - Integer.toUnsignedLong(network));
    }

    /** {@code 239.192.0.0/14}, as in a level file. */
    public String cidr() {
        return dotted(network) + "/" + prefix;
    }

    /** {@code 45000-45999}, or one port, as in a level file. */
    public String ports() {
        return firstPort == lastPort ? Integer.toString(firstPort) : firstPort + "-" + lastPort;
    }

    /** {@code a.b.c.d} of 32 address bits. */
    public static String dotted(int address) {
        return (address >>> 24) + "." + (address >>> 16 & 0xFF) + "." + (address >>> 8 & 0xFF) + "." + (address & 0xFF);
    }

    @Override
    public String toString() {
        return cidr() + " ports " + ports();
    }

    private void checkIndex(long index) {
        if (index < 0 || index >= capacity()) {
            throw new IndexOutOfBoundsException("slot " + index + " of multicast range " + this + " (" + capacity() + " slots)");
        }
    }

    private static int mask(int prefix) {
        return prefix == 0 ? 0 : -1 << (32 - prefix);
    }

    /** A decimal without sign or leading zero (so {@code 010} is not read as octal by anyone), at most {@code max}. */
    private static int number(String digits, int max, String what) {
        if (digits.length() > 1 && digits.charAt(0) == '0') {
            throw new IllegalArgumentException(what + " " + digits + " has a leading zero; write it without");
        }
        int value = Integer.parseInt(digits);
        if (value > max) {
            throw new IllegalArgumentException(what + " " + value + " is above " + max);
        }
        return value;
    }

    private static String shortened(String text) {
        String cut = text.length() > 40 ? text.substring(0, 40) + "..." : text;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
