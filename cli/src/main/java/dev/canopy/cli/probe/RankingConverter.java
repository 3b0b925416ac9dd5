package dev.canopy.cli.probe;

import dev.canopy.probes.internal.forecast.ErrorMetric;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code mae} or {@code mse}, as written on the command line. */
final class RankingConverter implements ITypeConverter<ErrorMetric> {

    @Override
    public ErrorMetric convert(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "mae" -> ErrorMetric.MEAN_ABSOLUTE;
            case "mse" -> ErrorMetric.MEAN_SQUARED;
            default -> throw new TypeConversionException("'" + text + "' is not an error to rank by; use mae or mse");
        };
    }
}
