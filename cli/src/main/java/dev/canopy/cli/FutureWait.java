package dev.canopy.cli;

import io.vertx.core.Context;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one way the command-line tools block on a {@link Future}: Vert.x 5's {@link Future#await(long, TimeUnit)}
 * (it parks a virtual thread, and waits on a latch on a platform thread), always with a deadline, never on an
 * event loop, and with one message shape naming the step: "WHAT failed: CAUSE", "WHAT did not finish within N s".
 * Programs that run on a job use {@code Blocking.await} of the collectives module instead, which rethrows a
 * collective's failure as it is (a {@code CollectiveFailedException} their code catches).
 */
public final class FutureWait {

    private FutureWait() {
    }

    /**
     * The future's result.
     *
     * @param what the step, for messages: "starting the dashboard", "demo step 'bcast'"
     * @throws IllegalStateException when the future fails (the cause attached), does not complete within
     *                               {@code deadline}, the thread is interrupted, or this is an event loop thread
     */
    public static <T> T await(Future<T> future, Duration deadline, String what) {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException(what + ": FutureWait.await called on an event loop thread, which it would"
                    + " block; compose the future instead");
        }
        try {
            return future.await(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + " did not finish within " + seconds(deadline), e);
        } catch (Exception e) { // the future's failure, or an interrupt, thrown as they are by Future#await
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(what + ": interrupted", e);
            }
            throw new IllegalStateException(what + " failed: " + e.getMessage(), e);
        }
    }

    private static String seconds(Duration deadline) {
        return deadline.toMillis() % 1000 == 0 ? deadline.toSeconds() + " s" : deadline.toMillis() + " ms";
    }
}
