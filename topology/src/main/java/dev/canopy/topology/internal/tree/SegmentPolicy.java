package dev.canopy.topology.internal.tree;

/**
 * How the runtime cuts a message into pipelined segments: the segment size for a message down a
 * tree of a given depth. Every rank forwards each segment to its children as soon as it arrives.
 */
@FunctionalInterface
public interface SegmentPolicy {

    /** No pipelining: the message travels in one piece. */
    SegmentPolicy WHOLE_MESSAGE = (bytes, depth) -> (int) Math.max(1, Math.min(Integer.MAX_VALUE, bytes));

    /**
     * @param bytes the message length
     * @param depth hops from the root to the deepest leaf
     * @return the length of every segment but the last, at least 1
     */
    int segmentBytes(long bytes, int depth);
}
