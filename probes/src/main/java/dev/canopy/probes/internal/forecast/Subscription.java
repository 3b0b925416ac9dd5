package dev.canopy.probes.internal.forecast;

/** Ends a subscription to forecast changes; closing twice is harmless. */
@FunctionalInterface
public interface Subscription extends AutoCloseable {

    @Override
    void close();
}
