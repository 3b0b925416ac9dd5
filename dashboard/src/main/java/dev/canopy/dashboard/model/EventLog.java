package dev.canopy.dashboard.model;

import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The last {@link #CAPACITY} events, numbered from 1; safe to use from any thread. */
public final class EventLog {

    public static final int CAPACITY = 500;

    private final Deque<GridEvent> events = new ArrayDeque<>();
    private final Map<GridEvent.Kind, Long> totals = new EnumMap<>(GridEvent.Kind.class);
    private long lastSequence;

    public synchronized GridEvent add(GridEvent.Kind kind, String detail, JsonObject fields) {
        GridEvent event = new GridEvent(++lastSequence, System.currentTimeMillis(), kind, detail, fields);
        events.addLast(event);
        totals.merge(kind, 1L, Long::sum);
        if (events.size() > CAPACITY) {
            events.removeFirst();
        }
        return event;
    }

    /** The events numbered above {@code sequence}, oldest first. */
    public synchronized List<GridEvent> since(long sequence) {
        List<GridEvent> newer = new ArrayList<>();
        for (GridEvent event : events) {
            if (event.sequence() > sequence) {
                newer.add(event);
            }
        }
        return newer;
    }

    /** How many events of {@code kind} there were in all, including those no longer kept. */
    public synchronized long total(GridEvent.Kind kind) {
        return totals.getOrDefault(kind, 0L);
    }

    public synchronized long lastSequence() {
        return lastSequence;
    }
}
