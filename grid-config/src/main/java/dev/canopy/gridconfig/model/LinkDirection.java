package dev.canopy.gridconfig.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** Whether a link section describes both directions between its sites or only first to second. */
public enum LinkDirection {
    BOTH_WAYS,
    ONE_WAY;

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<LinkDirection> fromConfigName(String text) {
        String canonical = Keyword.canonical(text);
        return Arrays.stream(values()).filter(d -> Keyword.canonical(d.name()).equals(canonical)).findFirst();
    }
}
