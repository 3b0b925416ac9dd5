package dev.canopy.probes.internal.measure;

import java.util.Map;

/**
 * One node's probe traffic since its probe service started.
 *
 * @param messagesSent probe messages sent: requests and transfers this node started, replies and receipts it gave
 * @param messagesReceived probe messages that reached this node, dropped ones included
 * @param answered requests and transfers of other members this node answered
 * @param measured probes of this node that produced a sample
 * @param lost probes of this node that got no usable answer in time
 * @param dropped incoming probe messages dropped unanswered, by reason
 * @param seconds how long the service has been running
 */
public record ProbeStatistics(long messagesSent, long messagesReceived, long answered, long measured, long lost,
                              Map<DropReason, Long> dropped, double seconds) {

    /** Probe messages sent plus received per second: the probe load this node carries. */
    public double messagesPerSecond() {
        return seconds > 0 ? (messagesSent + messagesReceived) / seconds : 0;
    }

    public long droppedTotal() {
        return dropped.values().stream().mapToLong(Long::longValue).sum();
    }

    public long dropped(DropReason reason) {
        return dropped.getOrDefault(reason, 0L);
    }
}
