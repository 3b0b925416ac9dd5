package dev.canopy.core.internal.failure;

import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.NodeId;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Members whose member znode was deleted, until the authenticated transport confirms them alive or their silence
 * confirms them failed; pure logic, time from an injected clock. A suspect is confirmed alive when it is heard from
 * one heartbeat period or more after the suspicion began (a heartbeat already in flight when the znode went proves
 * nothing). When its confirmation window ends unheard, its silence counts only if this node has heard some other
 * member within the last {@value #WITNESS_PERIODS} periods: a node whose event loops were starved or paused (a loaded
 * machine, a full GC) has heartbeats waiting unread in its sockets, and its window timer may fire before it reads
 * them, so it waits on, at most until the suspect has been silent for the heartbeat timeout (as the detector would
 * judge it). A node that has never heard any other member (a two-member job) has no witness: the window decides.
 *
 * <p>Not thread-safe: owned by one context.
 */
final class ZnodeSuspicions {

    /** What the end of a suspect's window decides. */
    enum Verdict {
        /** Not suspected (any more): confirmed alive, or departed meanwhile. */
        NOT_SUSPECTED,
        /** Silent while others were heard: it failed. */
        FAILED,
        /** This node heard nobody lately, so the silence says nothing yet: look again a period later. */
        UNDECIDED
    }

    /** Heartbeats leave every 0.8 to 1.2 periods with the default jitter, so a live link is heard within two. */
    static final int WITNESS_PERIODS = 2;

    private final long periodNanos;
    private final long timeoutNanos;
    private final NanoClock clock;
    private final Map<NodeId, Long> suspectedSince = new HashMap<>();
    private final Map<NodeId, Long> lastHeard = new HashMap<>();

    ZnodeSuspicions(HeartbeatSettings settings, NanoClock clock) {
        this.periodNanos = settings.period().toNanos();
        this.timeoutNanos = settings.timeout().toNanos();
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Starts suspecting {@code member}; false if it already is suspected. */
    boolean suspect(NodeId member) {
        return suspectedSince.putIfAbsent(member, clock.nanoTime()) == null;
    }

    boolean isSuspected(NodeId member) {
        return suspectedSince.containsKey(member);
    }

    /** {@code member} was heard over the authenticated transport; true if that confirms a suspect alive. */
    boolean heard(NodeId member) {
        long now = clock.nanoTime();
        lastHeard.put(member, now);
        Long since = suspectedSince.get(member);
        if (since != null && now - since >= periodNanos) {
            suspectedSince.remove(member);
            return true;
        }
        return false;
    }

    /** {@code member}'s confirmation window ended; a {@link Verdict#FAILED} suspect is no longer suspected. */
    Verdict windowEnded(NodeId member) {
        Long since = suspectedSince.get(member);
        if (since == null) {
            return Verdict.NOT_SUSPECTED;
        }
        long now = clock.nanoTime();
        long witnessedAfter = now - WITNESS_PERIODS * periodNanos;
        boolean noWitness = lastHeard.keySet().stream().allMatch(member::equals);
        boolean othersHeard = lastHeard.entrySet().stream()
                .anyMatch(heard -> !heard.getKey().equals(member) && heard.getValue() >= witnessedAfter);
        if (noWitness || othersHeard || now - since >= timeoutNanos) {
            suspectedSince.remove(member);
            return Verdict.FAILED;
        }
        return Verdict.UNDECIDED;
    }

    /** {@code member} departed: no suspicion, and it is no witness any more. */
    void forget(NodeId member) {
        suspectedSince.remove(member);
        lastHeard.remove(member);
    }
}
