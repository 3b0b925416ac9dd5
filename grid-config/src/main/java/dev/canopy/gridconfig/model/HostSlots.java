package dev.canopy.gridconfig.model;

import java.util.Objects;

/** A host of a subjob and how many of the subjob's processes it takes before the next host is used. */
public record HostSlots(String name, int slots) {

    public HostSlots {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("host name must not be blank");
        }
        if (slots < 1 || slots > GridModel.MAX_PROCESSES) {
            throw new IllegalArgumentException("host " + name + " needs 1 to " + GridModel.MAX_PROCESSES + " slots, got " + slots);
        }
    }

    /** {@code name:slots}, as written in {@code hosts}. */
    @Override
    public String toString() {
        return name + ":" + slots;
    }
}
