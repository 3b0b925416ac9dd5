package dev.canopy.dashboard.http;

import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Set;

/** Checked query parameters: unknown names, repeated values and malformed numbers are a 400 naming the fix. */
final class QueryParameters {

    private final RoutingContext context;

    private QueryParameters(RoutingContext context) {
        this.context = context;
    }

    static QueryParameters of(RoutingContext context, Set<String> accepted) {
        for (String name : context.queryParams().names()) {
            if (!accepted.contains(name)) {
                throw new ApiError(400, "unknown parameter '" + name + "' for " + context.normalizedPath()
                        + (accepted.isEmpty() ? "; it takes none" : "; it takes " + String.join(", ", accepted.stream().sorted().toList())));
            }
        }
        return new QueryParameters(context);
    }

    /** The parameter as an integer in {@code min..max}, or {@code fallback} when absent. */
    long integer(String name, long min, long max, long fallback) {
        List<String> values = context.queryParam(name);
        if (values.isEmpty()) {
            return fallback;
        }
        if (values.size() > 1) {
            throw new ApiError(400, "parameter '" + name + "' is given " + values.size() + " times; give it once");
        }
        String text = values.get(0);
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new ApiError(400, "parameter '" + name + "' is '" + abbreviate(text) + "', not an integer; give "
                    + min + " to " + max);
        }
        if (value < min || value > max) {
            throw new ApiError(400, "parameter '" + name + "' is " + value + "; give " + min + " to " + max);
        }
        return value;
    }

    private static String abbreviate(String text) {
        String printable = text.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() > 40 ? printable.substring(0, 40) + "..." : printable;
    }
}
