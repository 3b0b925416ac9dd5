package dev.canopy.multicast.internal.reliable;

import java.nio.ByteBuffer;

/**
 * The packets a root or co-root must still get to its leaves, in sequence order, packets {@code [head, tail)}:
 * {@code capacity} pre-allocated buffers of {@code slotBytes} (the MTU), used as one ring of bytes in which each
 * packet takes only its own length, so that small packets (bundled into BATCH datagrams) do not take a whole
 * MTU of buffer each: the window holds as many bytes as {@code capacity} full packets, and a packet is added only
 * while a full one would still fit. Packets {@code [head, sent)} have been sent and carry
 * a retransmission deadline. A leaf is covered up to {@code c} when every packet below {@code c} is
 * acknowledged by it or was retransmitted to it over the reliable link; the head packet is freed once
 * every leaf is covered beyond it. A packet's deadline is its send time plus the {@link RetransmitTimeout},
 * which learns from the round trips of the ACKs (the first ACK covering a packet still held). Owner loop only.
 */
final class LeafWindow {

    /**
     * Sends held packets {@code [from, to)} to one leaf over the reliable link (as few messages as it can: a timeout
     * that expires a whole burst sends each leaf one message per datagram's worth, not one per packet).
     */
    @FunctionalInterface
    interface Retransmitter {

        void send(int leaf, long from, long to);
    }

    private final byte[] arena;
    private final int slotBytes;
    private final int[] offsets;
    private final int[] lengths;
    private final long[] deadlines;
    private final long[] sentAt;
    private final RetransmitTimeout timeout;
    private final int[] leaves;
    private final long[] covered;
    private long head;
    private long tail;
    private long sent;

    LeafWindow(int capacity, int slotBytes, int[] leaves, RetransmitTimeout timeout) {
        this.arena = new byte[Math.multiplyExact(capacity, slotBytes)];
        this.slotBytes = slotBytes;
        int packets = arena.length / Math.min(slotBytes, PacketCodec.HEADER_BYTES); // most that can be held at once
        this.offsets = new int[packets];
        this.lengths = new int[packets];
        this.deadlines = new long[packets];
        this.sentAt = new long[packets];
        this.timeout = timeout;
        this.leaves = leaves.clone();
        this.covered = new long[leaves.length];
    }

    int inUse() {
        return (int) (tail - head);
    }

    /** No room for one more packet of up to {@code slotBytes}. */
    boolean isFull() {
        return inUse() == offsets.length || nextOffset() < 0;
    }

    long tail() {
        return tail;
    }

    long sent() {
        return sent;
    }

    /**
     * The buffer of the next packet ({@code tail}), {@code slotBytes} long from position 0 and backed by the window's
     * array, to write it in place; {@link #commit} then adds it.
     */
    ByteBuffer claim() {
        int offset = nextOffset();
        if (inUse() == offsets.length || offset < 0) {
            throw new IllegalStateException("claimed a slot of a full window (" + arena.length + " bytes, " + inUse()
                    + " packets)");
        }
        offsets[index(tail)] = offset;
        return ByteBuffer.wrap(arena, offset, slotBytes).slice();
    }

    /** Adds the packet written into the last {@link #claim}'s buffer, {@code length} bytes. */
    void commit(int length) {
        if (length < 0 || length > slotBytes) {
            throw new IllegalArgumentException("a packet of " + length + " bytes: slots hold 0 to " + slotBytes);
        }
        lengths[index(tail)] = length;
        tail++;
    }

    /**
     * Where a packet of up to {@code slotBytes} would go in the ring of bytes: after the tail packet, or at the start
     * when the end has no room; -1 when the held packets leave no such room.
     */
    private int nextOffset() {
        if (inUse() == 0) {
            return 0;
        }
        int start = offsets[index(head)];
        int end = offsets[index(tail - 1)] + lengths[index(tail - 1)];
        if (end > start) { // held bytes do not wrap: room after them, else before them
            return end + slotBytes <= arena.length ? end : slotBytes <= start ? 0 : -1;
        }
        return end + slotBytes <= start ? end : -1;
    }

    /** The length of held packet {@code sequence}. */
    int length(long sequence) {
        return lengths[index(sequence)];
    }

    /** Copies {@code packet} in as the next packet. */
    void add(ByteBuffer packet) {
        ByteBuffer slot = claim();
        int length = packet.remaining();
        slot.put(0, packet, packet.position(), length);
        commit(length);
    }

    /** A read-only view of a held packet. */
    ByteBuffer packet(long sequence) {
        int index = index(sequence);
        return ByteBuffer.wrap(arena, offsets[index], lengths[index]).slice().asReadOnlyBuffer();
    }

    /** The next unsent packet was sent at {@code now}; retransmit it after the timeout unless every leaf acknowledges. */
    void markSent(long now) {
        deadlines[index(sent)] = now + timeout.nanos();
        sentAt[index(sent)] = now;
        sent++;
    }

    /**
     * {@code leaf} has every packet below {@code ackedUpTo}, as of {@code now}. Returns whether it is one of this
     * window's leaves (the ACK is then recorded). An ACK that newly covers held packets not retransmitted to this
     * leaf is a round-trip sample: that of the oldest of them, the one that waited longest for it. (The newest, as
     * before 2026-11-28, left out the time a lazy ACK or a descheduled leaf kept the older ones waiting, so the
     * timeout was estimated below what whole bursts waited: over udp with 16 member processes on 2 cores, 5 to 12
     * retransmissions per 64 KiB bcast, all false, before this change and after it.)
     */
    boolean acknowledged(int leaf, long ackedUpTo, long now) {
        for (int i = 0; i < leaves.length; i++) {
            if (leaves[i] == leaf) {
                long oldest = Math.max(covered[i], head);
                if (oldest < ackedUpTo && oldest < sent) {
                    timeout.sample(now - sentAt[index(oldest)]);
                }
                covered[i] = Math.max(covered[i], ackedUpTo);
                return true;
            }
        }
        return false;
    }

    /**
     * Fast repair: {@code leaf} asked (NAK) for the packets from what it has acknowledged up to {@code missingUpTo}.
     * Sends it, over the reliable link, each of those this window still holds and has sent (a packet no longer held
     * was acknowledged by every leaf or sent to it reliably already; one not yet sent comes by multicast), and counts
     * it covered. Call {@link #acknowledged} with the NAK's ACK first. Returns the retransmissions.
     */
    int repair(int leaf, long missingUpTo, Retransmitter retransmitter) {
        for (int i = 0; i < leaves.length; i++) {
            if (leaves[i] == leaf) {
                long from = Math.max(covered[i], head);
                long to = Math.min(missingUpTo, sent);
                if (from < to) {
                    retransmitter.send(leaf, from, to);
                }
                covered[i] = Math.max(covered[i], to);
                return (int) Math.max(0, to - from);
            }
        }
        return 0;
    }

    /** Frees the sent packets every leaf has covered; returns how many. */
    int releaseCovered() {
        int released = 0;
        while (head < sent && allCover(head)) {
            head++;
            released++;
        }
        return released;
    }

    /** The deadline of the oldest sent packet, or {@link Long#MAX_VALUE}. */
    long nextDeadline() {
        return head < sent ? deadlines[index(head)] : Long.MAX_VALUE;
    }

    /**
     * Retransmits and frees the sent packets from the head whose deadline has passed (up to the first that is not
     * due), each leaf getting its missing ones in one call; returns the retransmissions (packets, counted per leaf).
     */
    int expire(long now, Retransmitter retransmitter) {
        long end = head;
        while (end < sent && deadlines[index(end)] <= now) {
            end++;
        }
        return retransmitUpTo(end, retransmitter);
    }

    /**
     * Retransmits the oldest packet to the leaves that have not covered it and frees it: what a timeout
     * does, and what running out of buffers does early. Returns the retransmissions.
     */
    int retransmitHead(Retransmitter retransmitter) {
        if (head == sent) {
            throw new IllegalStateException("no sent packet to retransmit (head " + head + ")");
        }
        return retransmitUpTo(head + 1, retransmitter);
    }

    /** Sends every leaf the sent packets below {@code end} it has not covered, and frees them. */
    private int retransmitUpTo(long end, Retransmitter retransmitter) {
        int retransmissions = 0;
        for (int i = 0; i < leaves.length; i++) {
            long from = Math.max(covered[i], head);
            if (from < end) {
                retransmitter.send(leaves[i], from, end);
                covered[i] = end;
                retransmissions += (int) (end - from);
            }
        }
        head = end;
        return retransmissions;
    }

    /** Frees every packet (the stream failed). */
    void clear() {
        head = tail;
        sent = tail;
    }

    private boolean allCover(long sequence) {
        for (long c : covered) {
            if (c <= sequence) {
                return false;
            }
        }
        return true;
    }

    private int index(long sequence) {
        return (int) (sequence % offsets.length);
    }
}
