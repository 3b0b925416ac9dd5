package dev.canopy.cli.probe;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads durations as people write them: {@code 500ms}, {@code 20s}, {@code 2m}, {@code 1.5s}. */
public final class HumanDuration implements ITypeConverter<Duration> {

    private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m)");

    @Override
    public Duration convert(String text) {
        Matcher matcher = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new TypeConversionException("'" + text + "' is not a duration; write e.g. 500ms, 20s or 2m");
        }
        double amount = Double.parseDouble(matcher.group(1));
        double millis = switch (matcher.group(2)) {
            case "ms" -> amount;
            case "s" -> amount * 1_000;
            default -> amount * 60_000;
        };
        if (millis < 1 || millis > Duration.ofDays(1).toMillis()) {
            throw new TypeConversionException("duration '" + text + "' must be between 1ms and 24 hours");
        }
        return Duration.ofMillis(Math.round(millis));
    }
}
