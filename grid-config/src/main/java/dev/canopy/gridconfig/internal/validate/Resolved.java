package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.internal.rsl.Position;
import java.util.List;

/** A value with its variables substituted and concatenations joined: plain text or a list. */
sealed interface Resolved {

    Position position();

    record Text(Position position, String text) implements Resolved {
    }

    record Items(Position position, List<Resolved> items) implements Resolved {
        public Items {
            items = List.copyOf(items);
        }
    }
}
