package dev.canopy.gridconfig.model;

import java.util.Locale;

/** Spelling rules of names in level files: case does not matter and underscores are ignored. */
public final class Keyword {

    private Keyword() {
    }

    /** {@code "LAN_Id"} and {@code "lanid"} both become {@code "lanid"}. */
    public static String canonical(String written) {
        return written.replace("_", "").toLowerCase(Locale.ROOT);
    }
}
