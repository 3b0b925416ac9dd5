package dev.canopy.gridconfig.internal.hosts;

import dev.canopy.gridconfig.Excerpt;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Expands Slurm's compressed host lists ({@code SLURM_JOB_NODELIST}, {@code SLURM_STEP_NODELIST}):
 * {@code node[01-04,07],gpu1} is node01 node02 node03 node04 node07 gpu1. Commas outside brackets separate
 * names; inside brackets they separate numbers and ranges {@code lo-hi}; a number written with leading zeros
 * pads every number of its range to its width ({@code [08-10]} is 08 09 10). A name may have several bracket
 * groups, expanded with the leftmost varying slowest ({@code r[1-2]n[1-2]} is r1n1 r1n2 r2n1 r2n2), as
 * Slurm's {@code scontrol show hostnames} lists them. At most {@link HostList#MAX_HOSTS} names, counted
 * before anything is expanded, so {@code n[0-999999999]} is refused at once.
 */
public final class SlurmNodelist {

    /** Longer lists are surely not Slurm's (it writes about 10 characters per range). */
    public static final int MAX_CHARS = 1024 * 1024;
    private static final int MAX_DIGITS = 9;

    private SlurmNodelist() {
    }

    /** The names or, in {@code problem}, why the list cannot be read. */
    public record Expansion(List<String> names, Optional<String> problem) {

        public Expansion {
            names = List.copyOf(names);
        }

        static Expansion failed(String problem) {
            return new Expansion(List.of(), Optional.of(problem));
        }
    }

    /** A bracket group's numbers, already formatted, or a literal piece of a name (one value). */
    private record Piece(List<String> values) {
    }

    public static Expansion expand(String list) {
        if (list.length() > MAX_CHARS) {
            return Expansion.failed("the node list is longer than " + MAX_CHARS + " characters");
        }
        String stripped = list.strip();
        if (stripped.isEmpty()) {
            return Expansion.failed("the node list is empty");
        }
        List<String> names = new ArrayList<>();
        for (String item : splitOutsideBrackets(stripped)) {
            if (item.isEmpty()) {
                return Expansion.failed("the node list " + Excerpt.quoted(stripped) + " has an empty name (two commas,"
                        + " or one at an end)");
            }
            List<Piece> pieces = new ArrayList<>();
            Optional<String> problem = pieces(item, pieces);
            if (problem.isPresent()) {
                return Expansion.failed(problem.get());
            }
            long count = 1;
            for (Piece piece : pieces) {
                count *= piece.values().size();
                if (names.size() + count > HostList.MAX_HOSTS) {
                    return Expansion.failed("the node list names more than " + HostList.MAX_HOSTS + " hosts");
                }
            }
            product(pieces, 0, "", names);
        }
        for (String name : names) {
            Optional<String> problem = HostNames.problem(name);
            if (problem.isPresent()) {
                return Expansion.failed(problem.get());
            }
        }
        return new Expansion(names, Optional.empty());
    }

    private static List<String> splitOutsideBrackets(String list) {
        List<String> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                items.add(list.substring(start, i));
                start = i + 1;
            }
        }
        items.add(list.substring(start));
        return items;
    }

    /** Splits one name into literal pieces and bracket groups; returns the problem when it is malformed. */
    private static Optional<String> pieces(String item, List<Piece> pieces) {
        int i = 0;
        while (i < item.length()) {
            int open = item.indexOf('[', i);
            int close = item.indexOf(']', i);
            if (close >= 0 && (open < 0 || close < open)) {
                return Optional.of("']' without '[' in " + Excerpt.quoted(item));
            }
            if (open < 0) {
                pieces.add(new Piece(List.of(item.substring(i))));
                return Optional.empty();
            }
            if (open > i) {
                pieces.add(new Piece(List.of(item.substring(i, open))));
            }
            if (close < 0) {
                return Optional.of("'[' is never closed in " + Excerpt.quoted(item));
            }
            String ranges = item.substring(open + 1, close);
            if (ranges.indexOf('[') >= 0) {
                return Optional.of("brackets are nested in " + Excerpt.quoted(item));
            }
            List<String> values = new ArrayList<>();
            Optional<String> problem = numbers(ranges, item, values);
            if (problem.isPresent()) {
                return problem;
            }
            pieces.add(new Piece(values));
            i = close + 1;
        }
        return Optional.empty();
    }

    private static Optional<String> numbers(String ranges, String item, List<String> values) {
        if (ranges.isEmpty()) {
            return Optional.of("empty brackets '[]' in " + Excerpt.quoted(item));
        }
        for (String range : ranges.split(",", -1)) {
            int dash = range.indexOf('-');
            String low = dash < 0 ? range : range.substring(0, dash);
            String high = dash < 0 ? range : range.substring(dash + 1);
            if (!isNumber(low) || !isNumber(high)) {
                return Optional.of(Excerpt.quoted(range) + " in " + Excerpt.quoted(item) + " is not a number or a range"
                        + " lo-hi of numbers (at most " + MAX_DIGITS + " digits)");
            }
            long from = Long.parseLong(low);
            long to = Long.parseLong(high);
            if (from > to) {
                return Optional.of("range " + range + " in " + Excerpt.quoted(item) + " runs backwards; write " + high + "-" + low);
            }
            if (values.size() + (to - from + 1) > HostList.MAX_HOSTS) {
                return Optional.of("the node list names more than " + HostList.MAX_HOSTS + " hosts");
            }
            int width = low.length() > 1 && low.charAt(0) == '0' ? low.length() : 0;
            for (long number = from; number <= to; number++) {
                String digits = Long.toString(number);
                values.add(digits.length() < width ? "0".repeat(width - digits.length()) + digits : digits);
            }
        }
        return Optional.empty();
    }

    private static boolean isNumber(String text) {
        return !text.isEmpty() && text.length() <= MAX_DIGITS && text.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static void product(List<Piece> pieces, int at, String prefix, List<String> names) {
        if (at == pieces.size()) {
            names.add(prefix);
            return;
        }
        for (String value : pieces.get(at).values()) {
            product(pieces, at + 1, prefix + value, names);
        }
    }
}
