package dev.canopy.core.internal.emulation;

import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link DelayScheduler} with one daemon thread that parks until the next deadline (sub-millisecond
 * precision, unlike event-loop timers, which round to milliseconds). Its tasks only hand work to a
 * Vert.x context; they never run transport code on this thread. Deadlines are {@link System#nanoTime()}
 * values ({@link NanoClock#SYSTEM}).
 */
public final class ThreadDelayScheduler implements DelayScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(ThreadDelayScheduler.class);

    private final DelayQueue<Entry> queue = new DelayQueue<>();
    private final AtomicLong order = new AtomicLong();
    private final Thread worker;
    private volatile boolean running = true;

    public ThreadDelayScheduler(String name) {
        worker = new Thread(this::runTasks, name);
        worker.setDaemon(true);
        worker.start();
    }

    @Override
    public void schedule(long deadlineNanos, Runnable task) {
        queue.add(new Entry(deadlineNanos, order.getAndIncrement(), task));
    }

    @Override
    public void close() {
        running = false;
        worker.interrupt();
    }

    private void runTasks() {
        while (running) {
            try {
                queue.take().task.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.error("emulated-WAN task failed", e);
            }
        }
    }

    private record Entry(long deadlineNanos, long order, Runnable task) implements Delayed {

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            Entry that = (Entry) other;
            int byDeadline = Long.signum(deadlineNanos - that.deadlineNanos);
            return byDeadline != 0 ? byDeadline : Long.compare(order, that.order);
        }
    }
}
