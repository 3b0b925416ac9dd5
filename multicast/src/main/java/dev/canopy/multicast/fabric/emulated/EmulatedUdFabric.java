package dev.canopy.multicast.fabric.emulated;

import dev.canopy.multicast.fabric.Fabric;
import dev.canopy.multicast.fabric.MulticastGroup;
import dev.canopy.multicast.fabric.ReceiveHandler;
import dev.canopy.multicast.fabric.SendOutcome;
import dev.canopy.multicast.loop.OwnerLoop;
import java.nio.ByteBuffer;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One member's endpoint on an {@link EmulatedUdSwitch}, modelled on a UD queue pair: a receive queue
 * of posted buffers that the switch fills as copies arrive (on any thread, like a NIC writing host
 * memory), and a completion queue drained on the owner loop, which hands each filled buffer to the
 * receive handler. A copy that finds the receive queue empty is dropped, as on the hardware.
 */
public final class EmulatedUdFabric implements Fabric {

    private final EmulatedUdSwitch fabricSwitch;
    private final String name;
    private final OwnerLoop owner;
    private final Set<MulticastGroup> joined = ConcurrentHashMap.newKeySet();
    private final Queue<ByteBuffer> posted = new ConcurrentLinkedQueue<>();
    private final AtomicInteger postedCount = new AtomicInteger();
    private final Queue<Completion> completions = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private volatile ReceiveHandler handler;
    private volatile boolean closed;

    EmulatedUdFabric(EmulatedUdSwitch fabricSwitch, String name, OwnerLoop owner) {
        this.fabricSwitch = fabricSwitch;
        this.name = name;
        this.owner = owner;
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
            posted.add(buffer);
            postedCount.incrementAndGet();
        }
    }

    @Override
    public int postedReceives() {
        return postedCount.get();
    }

    @Override
    public void receiveHandler(ReceiveHandler handler) {
        this.handler = handler;
    }

    @Override
    public void close() {
        closed = true;
        for (MulticastGroup group : Set.copyOf(joined)) {
            leave(group);
        }
        posted.clear();
        postedCount.set(0);
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
        ByteBuffer buffer = posted.poll();
        if (buffer == null) {
            fabricSwitch.droppedNoBuffer.incrementAndGet();
            return;
        }
        postedCount.decrementAndGet();
        buffer.clear();
        buffer.put(datagram).flip();
        fabricSwitch.delivered.incrementAndGet();
        completions.add(new Completion(group, buffer));
        if (drainScheduled.compareAndSet(false, true)) {
            owner.execute(this::drainCompletions);
        }
    }

    private void drainCompletions() {
        drainScheduled.set(false);
        Completion completion;
        while ((completion = completions.poll()) != null) {
            ReceiveHandler current = handler;
            if (current != null && !closed) {
                current.received(completion.group, completion.buffer);
            }
        }
    }

    private record Completion(MulticastGroup group, ByteBuffer buffer) {
    }
}
