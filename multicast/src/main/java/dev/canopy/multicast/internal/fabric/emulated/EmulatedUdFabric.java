package dev.canopy.multicast.internal.fabric.emulated;

import dev.canopy.multicast.internal.fabric.Fabric;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.fabric.ReceiveHandler;
import dev.canopy.multicast.internal.fabric.ReceiveQueue;
import dev.canopy.multicast.internal.fabric.SendOutcome;
import dev.canopy.multicast.internal.loop.OwnerLoop;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One member's endpoint on an {@link EmulatedUdSwitch}, modelled on a UD queue pair ({@link ReceiveQueue}):
 * the switch fills posted buffers as copies arrive, on any thread, and the owner loop gets them as
 * completions. A copy that finds no posted buffer is dropped, as on the hardware.
 */
public final class EmulatedUdFabric implements Fabric {

    private final EmulatedUdSwitch fabricSwitch;
    private final String name;
    private final Set<MulticastGroup> joined = ConcurrentHashMap.newKeySet();
    private final ReceiveQueue receives;
    private volatile boolean closed;

    EmulatedUdFabric(EmulatedUdSwitch fabricSwitch, String name, OwnerLoop owner) {
        this.fabricSwitch = fabricSwitch;
        this.name = name;
        this.receives = new ReceiveQueue(owner);
    }

    @Override
    public String kind() {
        return "emulated-ud";
    }

    @Override
    public int mtu() {
        return fabricSwitch.options().mtu();
    }

    @Override
    public void join(MulticastGroup group) {
        if (!closed && joined.add(group)) {
            fabricSwitch.join(group, this);
        }
    }

    @Override
    public void leave(MulticastGroup group) {
        if (joined.remove(group)) {
            fabricSwitch.leave(group, this);
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
        if (!joined.contains(group)) {
            return SendOutcome.NOT_JOINED;
        }
        byte[] copy = new byte[datagram.remaining()];
        datagram.get(copy);
        fabricSwitch.transmit(this, group, copy);
        return SendOutcome.SENT;
    }

    @Override
    public void postReceive(ByteBuffer buffer) {
        if (buffer.capacity() < mtu()) {
            throw new IllegalArgumentException("receive buffer of " + buffer.capacity() + " bytes posted to " + name
                    + ": the fabric's datagrams are up to " + mtu() + " bytes");
        }
        if (!closed) {
            receives.post(buffer);
        }
    }

    @Override
    public int postedReceives() {
        return receives.posted();
    }

    @Override
    public void receiveHandler(ReceiveHandler handler) {
        receives.handler(handler);
    }

    @Override
    public void close() {
        closed = true;
        for (MulticastGroup group : Set.copyOf(joined)) {
            leave(group);
        }
        receives.close();
    }

    @Override
    public String toString() {
        return "emulated-ud endpoint " + name;
    }

    /** A copy reaches this endpoint: into the next posted buffer, or dropped when there is none. */
    void arrive(MulticastGroup group, byte[] datagram) {
        if (closed || !joined.contains(group)) {
            return;
        }
        ByteBuffer buffer = receives.take();
        if (buffer == null) {
            fabricSwitch.droppedNoBuffer.incrementAndGet();
            return;
        }
        buffer.put(datagram).flip();
        fabricSwitch.delivered.incrementAndGet();
        receives.complete(group, buffer);
    }
}
