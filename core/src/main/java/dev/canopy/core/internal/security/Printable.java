package dev.canopy.core.internal.security;

/** Makes text from the wire safe to log: bounded length, no control characters (no forged log lines). */
public final class Printable {

    private Printable() {
    }

    /** {@code text} cut to {@code maxChars} (with a note of how much was cut) and with control characters as {@code ?}. */
    public static String of(String text, int maxChars) {
        String cut = text.length() > maxChars ? text.substring(0, maxChars) : text;
        StringBuilder safe = new StringBuilder(cut.length() + 24);
        cut.codePoints().forEach(c -> safe.appendCodePoint(Character.isISOControl(c) || !Character.isDefined(c)
                || Character.getType(c) == Character.FORMAT ? '?' : c));
        if (cut.length() < text.length()) {
            safe.append("...(").append(text.length() - maxChars).append(" more characters)");
        }
        return safe.toString();
    }
}
