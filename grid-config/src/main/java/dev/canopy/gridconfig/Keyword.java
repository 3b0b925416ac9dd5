package dev.canopy.gridconfig;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Spelling rules of names in level files: case does not matter and underscores are ignored. */
public final class Keyword {

    private Keyword() {
    }

    /** {@code "LAN_Id"} and {@code "lanid"} both become {@code "lanid"}. */
    public static String canonical(String written) {
        return written.replace("_", "").toLowerCase(Locale.ROOT);
    }

    /** The constant of {@code type} whose name is spelt {@code written}, by the rules above. */
    public static <E extends Enum<E>> Optional<E> parse(Class<E> type, String written) {
        String canonical = canonical(written);
        return Arrays.stream(type.getEnumConstants()).filter(e -> canonical(e.name()).equals(canonical)).findFirst();
    }

    /** How level files, JSON and the command line write {@code constant}: {@code FABRIC_MULTICAST} as {@code fabric_multicast}. */
    public static String configName(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }

    /** The names of all constants of {@code type}, as level files write them, in declaration order. */
    public static <E extends Enum<E>> List<String> configNames(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Keyword::configName).toList();
    }
}
