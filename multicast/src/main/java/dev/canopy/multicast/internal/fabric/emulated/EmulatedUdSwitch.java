package dev.canopy.multicast.internal.fabric.emulated;

import dev.canopy.core.internal.emulation.DelayScheduler;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.loop.OwnerLoop;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The switch of an emulated InfiniBand UD multicast fabric, shared by the endpoints of one JVM: it
 * copies each datagram to every other endpoint joined to the group, losing, duplicating and
 * reordering copies with the seeded probabilities of {@link EmulatedUdOptions}. A copy lands in the
 * receiver's next posted buffer when it arrives, whatever the receiving process is doing; with no
 * posted buffer it is dropped. Thread-safe.
 */
public final class EmulatedUdSwitch {

    private static final Logger LOG = LoggerFactory.getLogger(EmulatedUdSwitch.class);

    private final EmulatedUdOptions options;
    private final NanoClock clock;
    private final DelayScheduler wire;
    private final SeededDice dice;
    private final Map<MulticastGroup, List<EmulatedUdFabric>> groups = new ConcurrentHashMap<>();
    private final AtomicLong copies = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private final AtomicLong duplicated = new AtomicLong();
    private final AtomicLong reordered = new AtomicLong();
    final AtomicLong droppedNoBuffer = new AtomicLong();
    final AtomicLong delivered = new AtomicLong();

    /**
     * @param clock the time base of {@code wire}'s deadlines
     * @param wire  runs delayed arrivals (a {@code ThreadDelayScheduler} on Vert.x, the simulation's wire in tests)
     */
    public EmulatedUdSwitch(EmulatedUdOptions options, NanoClock clock, DelayScheduler wire) {
        this.options = options;
        this.clock = clock;
        this.wire = wire;
        this.dice = new SeededDice(options.seed());
        LOG.info("emulated-ud fabric: MTU {} of {} wire bytes, loss {}, duplication {}, reorder {}, seed {}",
                options.mtu(), options.wireMtu(), options.loss(), options.duplication(), options.reorder(),
                options.seed());
    }

    public EmulatedUdOptions options() {
        return options;
    }

    /** A new endpoint whose receive handler runs on {@code owner}. */
    public EmulatedUdFabric attach(String name, OwnerLoop owner) {
        return new EmulatedUdFabric(this, name, owner);
    }

    public EmulatedUdStats stats() {
        return new EmulatedUdStats(copies.get(), lost.get(), duplicated.get(), reordered.get(),
                droppedNoBuffer.get(), delivered.get());
    }

    void join(MulticastGroup group, EmulatedUdFabric endpoint) {
        List<EmulatedUdFabric> members = groups.computeIfAbsent(group, g -> new CopyOnWriteArrayList<>());
        if (!members.contains(endpoint)) {
            members.add(endpoint);
        }
    }

    void leave(MulticastGroup group, EmulatedUdFabric endpoint) {
        List<EmulatedUdFabric> members = groups.get(group);
        if (members != null) {
            members.remove(endpoint);
        }
    }

    /** Routes one datagram (already copied out of the sender's buffer) to the group's other members. */
    void transmit(EmulatedUdFabric sender, MulticastGroup group, byte[] datagram) {
        for (EmulatedUdFabric receiver : groups.getOrDefault(group, List.of())) {
            if (receiver == sender) {
                continue;
            }
            copies.incrementAndGet();
            if (dice.chance(options.loss())) {
                lost.incrementAndGet();
                continue;
            }
            routeCopy(receiver, group, datagram, dice.chance(options.reorder()));
            if (dice.chance(options.duplication())) {
                duplicated.incrementAndGet();
                routeCopy(receiver, group, datagram, true);
            }
        }
    }

    private void routeCopy(EmulatedUdFabric receiver, MulticastGroup group, byte[] datagram, boolean heldBack) {
        long delay = options.flightNanos();
        if (heldBack) {
            reordered.incrementAndGet();
            delay += 1 + dice.upTo(options.reorderNanos());
        }
        if (delay == 0) {
            receiver.arrive(group, datagram);
        } else {
            wire.schedule(clock.nanoTime() + delay, () -> receiver.arrive(group, datagram));
        }
    }
}
