package dev.canopy.gridconfig;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How error messages show text that came from the input: at most {@link #MAX_CHARS} characters, the
 * rest replaced by {@code ... (N bytes)}, and control characters escaped, so a 3 MB token or an
 * escape sequence in a hostile file gives a one-line message of bounded length.
 */
public final class Excerpt {

    /** Characters of an echoed text shown before it is cut. */
    public static final int MAX_CHARS = 64;

    private Excerpt() {
    }

    /** {@code text} as an error message shows it, e.g. {@code abc} or {@code abcd...xyz... (3145728 bytes)}. */
    public static String of(String text) {
        if (text.length() <= MAX_CHARS) {
            return escaped(text);
        }
        int end = Character.isHighSurrogate(text.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 1 : MAX_CHARS;
        return escaped(text.substring(0, end)) + "... (" + text.getBytes(StandardCharsets.UTF_8).length + " bytes)";
    }

    /** {@code "text"} in double quotes, cut like {@link #of}: {@code "abcd..." (3145728 bytes)} for a long one. */
    public static String quoted(String text) {
        if (text.length() <= MAX_CHARS) {
            return "\"" + escaped(text) + "\"";
        }
        String shown = of(text);
        int cut = shown.lastIndexOf("... (");
        return "\"" + shown.substring(0, cut) + "...\"" + shown.substring(cut + 3);
    }

    /** Items listed in messages before the rest is only counted. */
    public static final int MAX_ITEMS = 10;

    /** {@code a, b, c} or, for a long list, its first {@link #MAX_ITEMS} items and {@code ... (N in all)}. */
    public static String list(List<String> items) {
        String shown = items.stream().limit(MAX_ITEMS).map(Excerpt::of).collect(Collectors.joining(", "));
        return items.size() <= MAX_ITEMS ? shown : shown + ", ... (" + items.size() + " in all)";
    }

    /** Control characters (a newline, ESC, ...) as {@code \n} or {@code \}{@code u001b}: one line, no terminal escapes. */
    private static String escaped(String text) {
        if (text.chars().noneMatch(Excerpt::needsEscape)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        text.chars().forEach(c -> {
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (needsEscape(c)) {
                        out.append(String.format("\\u%04x", c));
                    } else {
                        out.append((char) c);
                    }
                }
            }
        });
        return out.toString();
    }

    private static boolean needsEscape(int c) {
        return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
    }
}
