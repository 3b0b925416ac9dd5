package dev.canopy.dashboard;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text exposition format 0.0.4, for tests: every line is a HELP, a TYPE, a
 * comment or a sample; metric and label names must be valid, label values properly quoted and escaped, values
 * numbers (or NaN, +Inf, -Inf); a family's TYPE comes before its samples and at most once; no series twice.
 * Anything else throws, naming the line.
 */
final class PrometheusText {

    record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    private PrometheusText() {
    }

    static List<Sample> parse(String text) {
        List<Sample> samples = new ArrayList<>();
        Map<String, String> types = new HashMap<>();
        Set<String> series = new HashSet<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            String where = "line " + (i + 1) + " '" + line + "'";
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring(7).split(" ");
                require(parts.length == 2 && NAME.matcher(parts[0]).matches() && TYPES.contains(parts[1]), where, "bad TYPE");
                require(types.put(parts[0], parts[1]) == null, where, "second TYPE for " + parts[0]);
                continue;
            }
            if (line.startsWith("#")) {
                continue; // HELP and comments
            }
            Sample sample = sample(line, where);
            String family = family(sample.name(), types);
            require(family != null, where, "sample before its family's TYPE");
            require(series.add(sample.name() + sample.labels()), where, "series given twice");
            samples.add(sample);
        }
        return samples;
    }

    private static String family(String name, Map<String, String> types) {
        if (types.containsKey(name)) {
            return name;
        }
        for (String suffix : List.of("_bucket", "_count", "_sum", "_total", "_created", "_max")) {
            if (name.endsWith(suffix) && types.containsKey(name.substring(0, name.length() - suffix.length()))) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return null;
    }

    private static Sample sample(String line, String where) {
        Matcher name = NAME.matcher(line);
        require(name.lookingAt(), where, "no metric name");
        int at = name.end();
        Map<String, String> labels = new LinkedHashMap<>();
        if (at < line.length() && line.charAt(at) == '{') {
            at++;
            while (line.charAt(at) != '}') {
                Matcher label = LABEL_NAME.matcher(line).region(at, line.length());
                require(label.lookingAt(), where, "bad label name at " + at);
                at = label.end();
                require(line.startsWith("=\"", at), where, "label without =\"");
                at += 2;
                StringBuilder value = new StringBuilder();
                while (line.charAt(at) != '"') {
                    char c = line.charAt(at++);
                    if (c == '\\') {
                        char escaped = line.charAt(at++);
                        require(escaped == '\\' || escaped == '"' || escaped == 'n', where, "bad escape \\" + escaped);
                        value.append(escaped == 'n' ? '\n' : escaped);
                    } else {
                        value.append(c);
                    }
                }
                at++;
                require(labels.put(label.group(), value.toString()) == null, where, "label twice");
                if (line.charAt(at) == ',') {
                    at++;
                }
            }
            at++;
        }
        require(at < line.length() && line.charAt(at) == ' ', where, "no space before the value");
        String[] rest = line.substring(at + 1).split(" ");
        require(rest.length == 1 || rest.length == 2, where, "extra fields");
        return new Sample(name.group(), labels, value(rest[0], where));
    }

    private static double value(String text, String where) {
        switch (text) {
            case "NaN": return Double.NaN;
            case "+Inf": return Double.POSITIVE_INFINITY;
            case "-Inf": return Double.NEGATIVE_INFINITY;
            default:
                try {
                    return Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(where + ": value '" + text + "' is not a number");
                }
        }
    }

    private static void require(boolean condition, String where, String what) {
        if (!condition) {
            throw new IllegalArgumentException(where + ": " + what);
        }
    }
}
