package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.Excerpt;
import dev.canopy.gridconfig.internal.rsl.Diagnostics;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads typed values out of resolved attributes. Every method reports what is wrong with the value,
 * at the value, and returns empty, so callers only decide what to do without it.
 */
final class ValueReader {

    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern WHOLE = Pattern.compile("\\d{1,9}");

    private final Diagnostics diagnostics;

    ValueReader(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
    }

    /** Exactly one plain value, e.g. {@code (label = "kut")}. */
    Optional<Resolved.Text> single(Attribute attribute) {
        if (attribute.values().size() != 1) {
            diagnostics.error(attribute.values().get(1).position(), "attribute " + Excerpt.quoted(attribute.written())
                    + " takes one value, found " + attribute.values().size());
            return Optional.empty();
        }
        return plain(attribute.values().get(0), attribute.written());
    }

    /** A single plain value that is not blank. */
    Optional<String> name(Attribute attribute) {
        return single(attribute).flatMap(text -> {
            if (text.text().isBlank()) {
                diagnostics.error(text.position(), "attribute " + Excerpt.quoted(attribute.written()) + " must not be blank");
                return Optional.empty();
            }
            return Optional.of(text.text());
        });
    }

    /** One or more plain values, e.g. {@code (hosts = "y1:4" "y2:4")}; empty if any is a list. */
    Optional<List<Resolved.Text>> plainValues(Attribute attribute) {
        List<Resolved.Text> texts = new ArrayList<>();
        for (Resolved value : attribute.values()) {
            Optional<Resolved.Text> text = plain(value, attribute.written());
            if (text.isEmpty()) {
                return Optional.empty();
            }
            texts.add(text.get());
        }
        return Optional.of(texts);
    }

    /** Pairs {@code (key value)}, e.g. {@code (levels = (heavy_wan hlot) (lan multicast))}; bad pairs are reported and left out. */
    List<Pair> pairs(Attribute attribute) {
        List<Pair> pairs = new ArrayList<>();
        for (Resolved value : attribute.values()) {
            if (value instanceof Resolved.Items items && items.items().size() == 2
                    && items.items().get(0) instanceof Resolved.Text key && items.items().get(1) instanceof Resolved.Text text) {
                pairs.add(new Pair(key, text));
            } else {
                diagnostics.error(value.position(), "attribute " + Excerpt.quoted(attribute.written())
                        + " takes pairs of plain values in parentheses, e.g. (" + Excerpt.of(attribute.written()) + " = (NAME value))");
            }
        }
        return pairs;
    }

    Optional<Integer> wholeNumber(Attribute attribute, int min, int max) {
        return single(attribute).flatMap(text -> wholeNumber(text, attribute.written(), min, max));
    }

    Optional<Integer> wholeNumber(Resolved.Text text, String what, int min, int max) {
        if (!WHOLE.matcher(text.text()).matches()) {
            String problem = text.text().matches("\\d+") ? "is too large" : "must be a whole number";
            diagnostics.error(text.position(), Excerpt.of(what) + " " + problem + ", got " + Excerpt.quoted(text.text()));
            return Optional.empty();
        }
        int value = Integer.parseInt(text.text());
        if (value < min || value > max) {
            String bounds = value < min ? "at least " + min : "at most " + max;
            diagnostics.error(text.position(), Excerpt.of(what) + " must be " + bounds + ", got " + value);
            return Optional.empty();
        }
        return Optional.of(value);
    }

    Optional<Double> number(Attribute attribute, NumberRange range) {
        return single(attribute).flatMap(text -> number(text, attribute.written(), range));
    }

    Optional<Double> number(Resolved.Text text, String what, NumberRange range) {
        if (!DECIMAL.matcher(text.text()).matches()) {
            diagnostics.error(text.position(), Excerpt.of(what) + " must be a number, got " + Excerpt.quoted(text.text()));
            return Optional.empty();
        }
        double value = Double.parseDouble(text.text());
        if (!Double.isFinite(value)) {
            diagnostics.error(text.position(), Excerpt.of(what) + " is too large, got " + Excerpt.of(text.text()));
            return Optional.empty();
        }
        if (!range.contains(value)) {
            diagnostics.error(text.position(), Excerpt.of(what) + " must be " + range.description() + ", got " + Excerpt.of(text.text()));
            return Optional.empty();
        }
        return Optional.of(value);
    }

    /**
     * A word from a fixed vocabulary (a fabric, a direction, ...), read by {@code parse}; an unknown
     * word is reported with the choices and the closest one.
     */
    <E> Optional<E> keyword(Resolved.Text text, String what, Function<String, Optional<E>> parse, List<String> choices) {
        Optional<E> parsed = parse.apply(text.text());
        if (parsed.isEmpty()) {
            diagnostics.error(text.position(), "unknown " + what + " " + Excerpt.quoted(text.text()) + "; expected one of "
                    + String.join(", ", choices), SpellingHint.closest(text.text(), choices));
        }
        return parsed;
    }

    private Optional<Resolved.Text> plain(Resolved value, String attribute) {
        if (value instanceof Resolved.Text text) {
            return Optional.of(text);
        }
        diagnostics.error(value.position(), "attribute " + Excerpt.quoted(attribute) + " takes plain values, not a list in parentheses");
        return Optional.empty();
    }
}
