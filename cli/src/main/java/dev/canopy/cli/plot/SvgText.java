package dev.canopy.cli.plot;

import java.util.Locale;

/** Text and numbers as they may appear inside an SVG document. */
final class SvgText {

    private SvgText() {
    }

    /** {@code text} escaped for element content and attribute values. */
    static String escape(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&apos;");
                default -> {
                    // XML 1.0 forbids most control characters even when escaped.
                    if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }

    /** A coordinate with one decimal, independent of the default locale. */
    static String coordinate(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    /** A time in milliseconds with the digits that matter at its magnitude. */
    static String millis(double ms) {
        if (ms >= 100) {
            return String.format(Locale.ROOT, "%.0f ms", ms);
        }
        return String.format(Locale.ROOT, ms >= 10 ? "%.1f ms" : "%.2f ms", ms);
    }
}
