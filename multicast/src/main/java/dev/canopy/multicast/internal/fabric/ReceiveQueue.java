package dev.canopy.multicast.internal.fabric;

import dev.canopy.multicast.internal.loop.OwnerLoop;
import java.nio.ByteBuffer;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fabric endpoint's receive side, modelled on a queue pair: posted buffers that the fabric fills on
 * any thread (as a NIC writes host memory), and a completion queue drained on the owner loop, which
 * hands each filled buffer to the {@link ReceiveHandler}, then tells it that the batch is done. Thread-safe.
 */
public final class ReceiveQueue {

    private final OwnerLoop owner;
    private final Queue<ByteBuffer> posted = new ConcurrentLinkedQueue<>();
    private final AtomicInteger postedCount = new AtomicInteger();
    private final Queue<Completion> completions = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private volatile ReceiveHandler handler;
    private volatile boolean closed;

    public ReceiveQueue(OwnerLoop owner) {
        this.owner = owner;
    }

    public void handler(ReceiveHandler newHandler) {
        this.handler = newHandler;
    }

    public void post(ByteBuffer buffer) {
        if (!closed) {
            posted.add(buffer);
            postedCount.incrementAndGet();
        }
    }

    public int posted() {
        return postedCount.get();
    }

    /** The next posted buffer, cleared, or null when none is posted (the datagram is then dropped). */
    public ByteBuffer take() {
        ByteBuffer buffer = posted.poll();
        if (buffer != null) {
            postedCount.decrementAndGet();
            buffer.clear();
        }
        return buffer;
    }

    /** {@code buffer}, taken from here, now holds a datagram (flipped for reading): hand it to the owner. */
    public void complete(MulticastGroup group, ByteBuffer buffer) {
        completions.add(new Completion(group, buffer));
        if (drainScheduled.compareAndSet(false, true)) {
            owner.execute(this::drain);
        }
    }

    /** Drops the posted buffers; nothing more is posted or handed over. */
    public void close() {
        closed = true;
        posted.clear();
        postedCount.set(0);
    }

    private void drain() {
        drainScheduled.set(false);
        ReceiveHandler last = null;
        Completion completion;
        while ((completion = completions.poll()) != null) {
            ReceiveHandler current = handler;
            if (current != null && !closed) {
                current.received(completion.group, completion.buffer);
                last = current;
            }
        }
        if (last != null) {
            last.batchDone();
        }
    }

    private record Completion(MulticastGroup group, ByteBuffer buffer) {
    }
}
