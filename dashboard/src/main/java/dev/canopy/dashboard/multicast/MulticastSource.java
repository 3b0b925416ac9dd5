package dev.canopy.dashboard.multicast;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.multicast.MulticastPath;
import dev.canopy.dashboard.model.DashboardState;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Feeds the multicast view from in-process members: reads each member's {@link MulticastPath#stats()} (on its
 * own context, read-only) and publishes them as one {@link MulticastFigures}. Members whose bcast does not
 * run over multicast are left out.
 */
public final class MulticastSource {

    private final DashboardState state;
    private final String communicator;
    private final List<Collectives> members;

    /**
     * @param communicator the communicator's name as the page shows it, e.g. {@code WORLD}
     * @param members      its members in this process, in any order
     */
    public MulticastSource(DashboardState state, String communicator, List<Collectives> members) {
        this.state = Objects.requireNonNull(state, "state");
        this.communicator = Objects.requireNonNull(communicator, "communicator");
        this.members = List.copyOf(members);
    }

    /**
     * Publishes every {@code period} until the returned handle is closed, so the view (window occupancy above all,
     * which is back to 0 once every packet is acknowledged) changes live while bcasts run.
     */
    public Publishing publishEvery(Vertx vertx, Duration period) {
        long timer = vertx.setPeriodic(period.toMillis(), id -> publish());
        return () -> vertx.cancelTimer(timer);
    }

    /** Periodic publishing; closing stops it. */
    @FunctionalInterface
    public interface Publishing extends AutoCloseable {
        @Override
        void close();
    }

    /** Reads every member's counters and publishes them; completes with what was published. */
    public Future<MulticastFigures> publish() {
        List<Future<MulticastFigures.Member>> reading = new ArrayList<>();
        String path = "";
        for (Collectives member : members) {
            if (member.broadcastPath() instanceof MulticastPath multicast) {
                path = multicast.description();
                String site = member.communicator().member(member.rank()).coordinates().site();
                reading.add(multicast.stats().map(stats -> new MulticastFigures.Member(member.rank(), site, stats)));
            }
        }
        if (reading.isEmpty()) {
            return Future.succeededFuture(MulticastFigures.NONE);
        }
        String description = path;
        Collectives first = members.get(0);
        return Future.all(reading).map(all -> {
            List<MulticastFigures.Member> rows = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                rows.add(all.resultAt(i));
            }
            MulticastFigures figures = new MulticastFigures(communicator, description,
                    first.broadcastPath().fallback(), rows);
            state.multicast(figures);
            return figures;
        });
    }
}
