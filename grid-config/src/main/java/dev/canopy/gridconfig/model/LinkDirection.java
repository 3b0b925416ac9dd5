package dev.canopy.gridconfig.model;

import dev.canopy.gridconfig.Keyword;
import java.util.Optional;

/** Whether a link section describes both directions between its sites or only first to second. */
public enum LinkDirection {
    BOTH_WAYS,
    ONE_WAY;

    public String configName() {
        return Keyword.configName(this);
    }

    public static Optional<LinkDirection> fromConfigName(String text) {
        return Keyword.parse(LinkDirection.class, text);
    }
}
