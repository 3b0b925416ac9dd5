package dev.canopy.core.internal.emulation;

/**
 * Runs tasks at deadlines of a {@link NanoClock}. Tasks with the same deadline run in the order
 * they were scheduled, which is what keeps emulated reliable traffic FIFO.
 */
public interface DelayScheduler extends AutoCloseable {

    void schedule(long deadlineNanos, Runnable task);

    @Override
    void close();
}
