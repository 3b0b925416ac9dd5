package dev.canopy.dashboard.model;

import java.util.Locale;

/** The parts of the dashboard that change independently; each has its own version and endpoint. */
public enum Part {
    GRID, LINKS, PLAN, EVENTS, COLLECTIVES, MULTICAST;

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
