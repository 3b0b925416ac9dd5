package dev.canopy.core.internal.fault;

/** Which traffic a fault layer acts on; the rest passes through untouched. */
public enum Traffic {
    /** Reliable frames ({@code send}). */
    FRAMES,
    /** Datagrams ({@code sendDatagram}). */
    DATAGRAMS,
    ALL;

    boolean includesFrames() {
        return this != DATAGRAMS;
    }

    boolean includesDatagrams() {
        return this != FRAMES;
    }
}
