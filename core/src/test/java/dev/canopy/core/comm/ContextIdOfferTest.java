package dev.canopy.core.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Context ids at the top of the int range: they run out with a clear error instead of wrapping to negative ids. */
class ContextIdOfferTest {

    @Test
    void theLastIdsAreGivenOutAndNoneWrapsAround() {
        ContextIdOffer nearTheTop = ContextIdOffer.of(ContextIdOffer.MAX_CONTEXT_ID - 1, Set.of());

        assertThat(ContextIdOffer.choose(List.of(nearTheTop), 2))
                .containsExactly(ContextIdOffer.MAX_CONTEXT_ID - 1, ContextIdOffer.MAX_CONTEXT_ID);
        assertThatThrownBy(() -> ContextIdOffer.choose(List.of(nearTheTop), 3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no context ids left for 3 new communicators")
                .hasMessageContaining("free()");
    }

    @Test
    void anOfferWithEveryIdUsedLeavesOnlyFreedIds() {
        // A node whose last id was MAX_CONTEXT_ID offers next = MAX_CONTEXT_ID + 1 (Integer.MAX_VALUE).
        ContextIdOffer exhausted = ContextIdOffer.of(ContextIdOffer.MAX_CONTEXT_ID + 1, Set.of(7));
        ContextIdOffer other = ContextIdOffer.of(20, Set.of(7, 9));

        assertThat(ContextIdOffer.read(exhausted.appendTo(io.vertx.core.buffer.Buffer.buffer()), 0)).isEqualTo(exhausted);
        assertThat(ContextIdOffer.choose(List.of(exhausted, other), 1)).containsExactly(7);
        assertThatThrownBy(() -> ContextIdOffer.choose(List.of(exhausted, other), 2))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("1 freed ones are free on every member");
    }
}
