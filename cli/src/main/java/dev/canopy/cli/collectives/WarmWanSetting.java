package dev.canopy.cli.collectives;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * What {@code canopy node --warm-wan off|auto|BYTES} asks for: no warm-up, a warm-up sized from each WAN link's
 * bandwidth-delay product where the job's plans cross real WAN links ({@link WarmUpSizes}), or a fixed number of
 * bytes over every WAN edge of the plans (also on loopback, e.g. in tests and experiments).
 */
record WarmWanSetting(Mode mode, int bytes) {

    enum Mode { OFF, AUTO, FIXED }

    static final WarmWanSetting OFF = new WarmWanSetting(Mode.OFF, 0);
    static final WarmWanSetting AUTO = new WarmWanSetting(Mode.AUTO, 0);

    WarmWanSetting {
        if (mode == Mode.FIXED && (bytes < WarmUpSizes.MIN_BYTES || bytes > WarmUpSizes.MAX_BYTES)) {
            throw new IllegalArgumentException("--warm-wan " + bytes + ": give off, auto or " + WarmUpSizes.MIN_BYTES
                    + " to " + WarmUpSizes.MAX_BYTES + " bytes, the same on every process");
        }
    }

    static WarmWanSetting fixed(int bytes) {
        return new WarmWanSetting(Mode.FIXED, bytes);
    }

    /** Reads {@code off}, {@code auto} or a byte count (0 means off, as before {@code auto} existed). */
    static WarmWanSetting parse(String text) {
        String given = text.trim().toLowerCase(Locale.ROOT);
        switch (given) {
            case "off", "0":
                return OFF;
            case "auto":
                return AUTO;
            default:
                try {
                    return fixed(Integer.parseInt(given));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--warm-wan '" + text + "': give off, auto or a byte count ("
                            + WarmUpSizes.MIN_BYTES + " to " + WarmUpSizes.MAX_BYTES + "), the same on every process");
                }
        }
    }

    /** picocli's converter for the option. */
    static final class Converter implements ITypeConverter<WarmWanSetting> {
        @Override
        public WarmWanSetting convert(String text) {
            try {
                return parse(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    @Override
    public String toString() {
        return mode == Mode.FIXED ? Integer.toString(bytes) : mode.name().toLowerCase(Locale.ROOT);
    }
}
