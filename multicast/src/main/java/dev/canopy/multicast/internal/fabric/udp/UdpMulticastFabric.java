package dev.canopy.multicast.internal.fabric.udp;

import dev.canopy.multicast.internal.fabric.Fabric;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.fabric.ReceiveHandler;
import dev.canopy.multicast.internal.fabric.ReceiveQueue;
import dev.canopy.multicast.internal.fabric.SendOutcome;
import dev.canopy.multicast.internal.loop.OwnerLoop;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code udp} fabric: real IPv4 multicast with {@link DatagramChannel}s on one network interface. A group
 * leased through ZooKeeper ({@code dev.canopy.multicast.internal.groups}) is sent to and received on its leased address
 * and port, so two jobs on one LAN never share one; an unleased group maps into the options' block at their port.
 * One channel sends (bound to the interface address and an ephemeral port, multicast TTL and interface
 * set, loopback on so that members on one host hear each other); each joined group has a receiving
 * channel bound to the group address and port, joined on the interface, read by its own thread (never
 * an event loop) and copied into the next posted buffer. A datagram is dropped when no buffer is posted,
 * when it is longer than the MTU, and when it comes from this endpoint's own send channel, so a member
 * never receives its own datagrams.
 */
public final class UdpMulticastFabric implements Fabric {

    private static final Logger LOG = LoggerFactory.getLogger(UdpMulticastFabric.class);
    /**
     * The kernel's buffers of the send channel and of each group channel (capped by net.core.wmem_max and
     * rmem_max): room for a root's burst of credits and for what every root may have in flight (credits x roots x
     * about 2.3 KB per datagram in the kernel) while the reader thread waits for a CPU, rather than Linux's 208 KiB
     * default. A full send buffer drops the datagram (a retransmission later), as a full receive buffer does.
     */
    static final int SOCKET_BUFFER_BYTES = 4 << 20;

    private final UdpFabricOptions options;
    private final NetworkInterface networkInterface;
    private final DatagramChannel sender;
    private final SocketAddress self;
    private final ReceiveQueue receives;
    private final Map<MulticastGroup, DatagramChannel> joined = new ConcurrentHashMap<>();
    private final AtomicLong droppedNoBuffer = new AtomicLong();
    private final AtomicLong sendsDropped = new AtomicLong();
    private final AtomicLong oversized = new AtomicLong();
    private volatile int grantedReceiveBuffer;
    private volatile boolean closed;

    private UdpMulticastFabric(UdpFabricOptions options, NetworkInterface networkInterface, DatagramChannel sender,
                               OwnerLoop owner) throws IOException {
        this.options = options;
        this.networkInterface = networkInterface;
        this.sender = sender;
        this.self = sender.getLocalAddress();
        this.receives = new ReceiveQueue(owner);
    }

    /** Opens the endpoint on the interface that has {@code options.interfaceAddress()}. */
    public static UdpMulticastFabric open(UdpFabricOptions options, OwnerLoop owner) throws IOException {
        NetworkInterface networkInterface = NetworkInterface.getByInetAddress(options.interfaceAddress());
        if (networkInterface == null) {
            throw new IOException("udp fabric: no network interface has address "
                    + options.interfaceAddress().getHostAddress() + "; give the member's own address");
        }
        DatagramChannel sender = DatagramChannel.open(StandardProtocolFamily.INET);
        try {
            sender.setOption(StandardSocketOptions.IP_MULTICAST_IF, networkInterface);
            sender.setOption(StandardSocketOptions.IP_MULTICAST_TTL, options.ttl());
            sender.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            sender.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
            sender.bind(new InetSocketAddress(options.interfaceAddress(), 0));
            sender.configureBlocking(false);
            return new UdpMulticastFabric(options, networkInterface, sender, owner);
        } catch (IOException | RuntimeException e) {
            sender.close();
            throw e;
        }
    }

    @Override
    public String kind() {
        return "udp";
    }

    @Override
    public int mtu() {
        return options.mtu();
    }

    @Override
    public void join(MulticastGroup group) {
        if (closed || joined.containsKey(group)) {
            return;
        }
        InetSocketAddress address = options.socketAddressOf(group);
        try {
            DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
            grantedReceiveBuffer = channel.getOption(StandardSocketOptions.SO_RCVBUF);
            LOG.info("udp fabric: group {} on {}: receive buffer {} bytes granted for {} asked (Linux doubles the ask"
                    + " for its bookkeeping, capped by net.core.rmem_max)", address, networkInterface.getName(),
                    grantedReceiveBuffer, SOCKET_BUFFER_BYTES);
            channel.bind(address);
            channel.join(address.getAddress(), networkInterface);
            joined.put(group, channel);
            Thread reader = new Thread(() -> readLoop(group, channel), "udp-multicast-" + address);
            reader.setDaemon(true);
            reader.start();
        } catch (IOException e) {
            throw new UncheckedIOException("udp fabric: cannot join " + address + " on " + networkInterface.getName(),
                    e);
        }
    }

    @Override
    public void leave(MulticastGroup group) {
        DatagramChannel channel = joined.remove(group);
        if (channel != null) {
            closeQuietly(channel);
        }
    }

    @Override
    public SendOutcome send(MulticastGroup group, ByteBuffer datagram) {
        if (closed) {
            return SendOutcome.CLOSED;
        }
        if (datagram.remaining() > mtu()) {
            return SendOutcome.TOO_LARGE;
        }
        if (!joined.containsKey(group)) {
            return SendOutcome.NOT_JOINED;
        }
        try {
            if (sender.send(datagram, options.socketAddressOf(group)) == 0) {
                sendsDropped.incrementAndGet(); // the socket's send buffer is full: a lost datagram, as on the wire
            }
            return SendOutcome.SENT;
        } catch (IOException e) {
            LOG.warn("udp fabric: sending to group {} on {} failed: {}", group.id(), networkInterface.getName(),
                    e.toString());
            return SendOutcome.FAILED;
        }
    }

    @Override
    public void postReceive(ByteBuffer buffer) {
        if (buffer.capacity() < mtu()) {
            throw new IllegalArgumentException("receive buffer of " + buffer.capacity()
                    + " bytes: the udp fabric's datagrams are up to " + mtu() + " bytes");
        }
        receives.post(buffer);
    }

    @Override
    public int postedReceives() {
        return receives.posted();
    }

    @Override
    public void receiveHandler(ReceiveHandler handler) {
        receives.handler(handler);
    }

    /** The receive buffer the kernel granted the last group joined (SO_RCVBUF read back), in bytes; 0 before. */
    public int grantedReceiveBuffer() {
        return grantedReceiveBuffer;
    }

    /** Datagrams dropped because no receive buffer was posted. */
    public long droppedNoBuffer() {
        return droppedNoBuffer.get();
    }

    /** Datagrams longer than the MTU, dropped. */
    public long oversized() {
        return oversized.get();
    }

    /** Datagrams the kernel would not take because the send buffer was full. */
    public long sendsDropped() {
        return sendsDropped.get();
    }

    @Override
    public void close() {
        closed = true;
        joined.keySet().forEach(this::leave);
        closeQuietly(sender);
        receives.close();
    }

    @Override
    public String toString() {
        return "udp endpoint " + self + " on " + networkInterface.getName();
    }

    private void readLoop(MulticastGroup group, DatagramChannel channel) {
        // One byte more than the MTU shows an oversized datagram, which the socket would otherwise truncate. Direct:
        // the kernel writes it there itself (into a heap buffer the JDK receives into a direct one and copies).
        ByteBuffer scratch = ByteBuffer.allocateDirect(mtu() + 1);
        try {
            while (channel.isOpen()) {
                SocketAddress from = channel.receive(scratch.clear());
                scratch.flip();
                if (self.equals(from)) {
                    continue;
                }
                if (scratch.remaining() > mtu()) {
                    oversized.incrementAndGet();
                    continue;
                }
                ByteBuffer buffer = receives.take();
                if (buffer == null) {
                    droppedNoBuffer.incrementAndGet();
                    continue;
                }
                receives.complete(group, buffer.put(scratch).flip());
            }
        } catch (ClosedChannelException closing) {
            // left the group or closed
        } catch (IOException e) {
            LOG.warn("udp fabric: receiving on group {} stopped: {}", group.id(), e.toString());
        }
    }

    private static void closeQuietly(DatagramChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("udp fabric: closing a channel: {}", e.toString());
        }
    }
}
