package dev.canopy.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class FutureWaitTest {

    @Test
    void aResultIsReturned() {
        assertThat(FutureWait.await(Future.succeededFuture(42), Duration.ofSeconds(1), "answering")).isEqualTo(42);
    }

    @Test
    void aFailureNamesTheStepAndCarriesTheCause() {
        IOException cause = new IOException("connection refused");
        assertThatThrownBy(() -> FutureWait.await(Future.failedFuture(cause), Duration.ofSeconds(1), "demo step 'join'"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("demo step 'join' failed: connection refused").hasCause(cause);
    }

    @Test
    void aFutureThatNeverCompletesEndsAtTheDeadline() {
        assertThatThrownBy(() -> FutureWait.await(Promise.promise().future(), Duration.ofMillis(50), "closing"))
                .hasMessage("closing did not finish within 50 ms");
    }

    @Test
    void anEventLoopIsNeverBlocked() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            CompletableFuture<Throwable> refused = new CompletableFuture<>();
            vertx.runOnContext(ignored -> {
                try {
                    FutureWait.await(Promise.promise().future(), Duration.ofSeconds(10), "a step");
                    refused.complete(null);
                } catch (IllegalStateException e) {
                    refused.complete(e);
                }
            });
            assertThat(refused.get(10, TimeUnit.SECONDS)).hasMessageContaining("called on an event loop thread");
        } finally {
            FutureWait.await(vertx.close(), Duration.ofSeconds(10), "closing Vert.x");
        }
    }
}
