package dev.canopy.core.internal.emulation;

/** A monotonic clock in nanoseconds; injected so the emulator's arithmetic is tested without waiting. */
@FunctionalInterface
public interface NanoClock {

    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();
}
