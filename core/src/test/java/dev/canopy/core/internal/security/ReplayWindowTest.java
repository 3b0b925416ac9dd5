package dev.canopy.core.internal.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ReplayWindowTest {

    @Test
    void eachNumberIsAcceptedOnceInAnyOrderWithinTheWindow() {
        long seed = 42;
        List<Long> numbers = new ArrayList<>();
        for (long n = 1_000; n < 1_000 + ReplayWindow.SIZE / 2; n++) {
            numbers.add(n);
        }
        Collections.shuffle(numbers, new Random(seed));
        ReplayWindow window = new ReplayWindow();
        for (long n : numbers) {
            assertThat(window.accept(n)).as("first sight of %d (seed %d)", n, seed).isTrue();
        }
        for (long n : numbers) {
            assertThat(window.accept(n)).as("replay of %d (seed %d)", n, seed).isFalse();
        }
    }

    @Test
    void numbersOlderThanTheWindowAreRefusedAndAJumpForgetsTheOldBits() {
        ReplayWindow window = new ReplayWindow();
        assertThat(window.accept(5)).isTrue();
        assertThat(window.accept(5 + ReplayWindow.SIZE)).isTrue();
        assertThat(window.accept(5)).as("older than the window").isFalse();
        assertThat(window.accept(6)).as("the oldest number still in the window").isTrue();
        assertThat(window.accept(5 + 10L * ReplayWindow.SIZE)).isTrue();
        assertThat(window.accept(4 + 10L * ReplayWindow.SIZE)).as("just below the new highest, never seen").isTrue();
        assertThat(window.accept(Long.MIN_VALUE + 1)).isFalse();
    }
}
