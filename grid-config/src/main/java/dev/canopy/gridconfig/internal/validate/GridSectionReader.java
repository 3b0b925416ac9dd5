package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.internal.print.DecimalText;
import dev.canopy.gridconfig.internal.rsl.Diagnostics;
import dev.canopy.gridconfig.internal.rsl.Position;
import dev.canopy.gridconfig.model.Algorithm;
import dev.canopy.gridconfig.model.LevelAlgorithms;
import dev.canopy.gridconfig.model.MulticastRange;
import dev.canopy.gridconfig.model.Thresholds;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads {@code (type = grid)}: name, default RTT, per-level algorithms and classification thresholds. */
final class GridSectionReader {

    private static final List<Level> THRESHOLD_LEVELS = List.of(Level.HOST, Level.CLUSTER, Level.LAN, Level.LIGHT_WAN);

    private final Diagnostics diagnostics;
    private final ValueReader values;

    GridSectionReader(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
        this.values = new ValueReader(diagnostics);
    }

    GridSettings read(AttributeTable grid) {
        Optional<String> name = grid.get("name").flatMap(values::name);
        double defaultRtt = grid.get("default_rtt_ms").flatMap(a -> values.number(a, NumberRange.NON_NEGATIVE))
                .orElse(GridSettings.DEFAULT_RTT_MS);
        LevelAlgorithms levels = grid.get("levels").map(this::levels).orElse(LevelAlgorithms.DEFAULTS);
        Thresholds thresholds = grid.get("thresholds_ms").map(this::thresholds).orElse(Thresholds.DEFAULTS);
        return new GridSettings(name, defaultRtt, levels, thresholds, multicast(grid));
    }

    /** {@code multicast_range} and {@code multicast_ports}, each defaulting to {@link MulticastRange#DEFAULT}'s. */
    private MulticastRange multicast(AttributeTable grid) {
        Optional<Resolved.Text> range = grid.get(MulticastRange.RANGE_ATTRIBUTE).flatMap(values::single);
        Optional<Resolved.Text> ports = grid.get(MulticastRange.PORTS_ATTRIBUTE).flatMap(values::single);
        String cidr = range.map(Resolved.Text::text).orElse(MulticastRange.DEFAULT.cidr());
        String portText = ports.map(Resolved.Text::text).orElse(MulticastRange.DEFAULT.ports());
        try {
            return MulticastRange.parse(cidr, portText);
        } catch (IllegalArgumentException e) {
            // The defaults are valid, so the problem is in the value given (the message says which).
            boolean aboutPorts = e.getMessage().startsWith("multicast port");
            Position at = (aboutPorts ? ports : range).map(Resolved.Text::position).orElse(grid.position());
            diagnostics.error(at, e.getMessage());
            return MulticastRange.DEFAULT;
        }
    }

    private LevelAlgorithms levels(Attribute attribute) {
        Map<Level, Algorithm> chosen = new EnumMap<>(LevelAlgorithms.DEFAULTS.byLevel());
        Map<Level, Position> given = new EnumMap<>(Level.class);
        for (Pair pair : values.pairs(attribute)) {
            Optional<Level> level = level(pair, given, Arrays.asList(Level.values()));
            level.flatMap(l -> algorithm(l, pair.value())).ifPresent(algorithm -> chosen.put(level.get(), algorithm));
        }
        return new LevelAlgorithms(chosen);
    }

    private Optional<Algorithm> algorithm(Level level, Resolved.Text written) {
        List<String> allowed = Algorithm.allowedAtLevel(level).stream().map(Algorithm::configName).toList();
        Optional<Algorithm> algorithm = values.keyword(written, level.configName() + " algorithm",
                Algorithm::fromConfigName, allowed);
        if (algorithm.isPresent() && !algorithm.get().allowedAt(level)) {
            diagnostics.error(written.position(), "algorithm \"" + algorithm.get().configName() + "\" cannot run at level "
                    + level.configName() + "; " + level.configName() + " takes " + String.join(", ", allowed));
            return Optional.empty();
        }
        return algorithm;
    }

    private Thresholds thresholds(Attribute attribute) {
        Map<Level, Double> ms = new EnumMap<>(Level.class);
        THRESHOLD_LEVELS.forEach(level -> ms.put(level, Thresholds.DEFAULTS.of(level).orElseThrow()));
        Map<Level, Position> given = new EnumMap<>(Level.class);
        boolean numbersRead = true;
        for (Pair pair : values.pairs(attribute)) {
            Optional<Level> level = level(pair, given, THRESHOLD_LEVELS);
            if (level.isEmpty()) {
                continue;
            }
            Optional<Double> value = values.number(pair.value(), "threshold of " + level.get().configName(), NumberRange.NON_NEGATIVE);
            value.ifPresent(v -> ms.put(level.get(), v));
            numbersRead &= value.isPresent();
        }
        if (numbersRead && increasing(ms, given, attribute.namePosition())) {
            return new Thresholds(ms.get(Level.HOST), ms.get(Level.CLUSTER), ms.get(Level.LAN), ms.get(Level.LIGHT_WAN));
        }
        return Thresholds.DEFAULTS;
    }

    /** Reports every neighbour pair from host to light_wan that does not increase, at the threshold given in the file. */
    private boolean increasing(Map<Level, Double> ms, Map<Level, Position> given, Position attributePosition) {
        boolean increasing = true;
        for (int i = 1; i < THRESHOLD_LEVELS.size(); i++) {
            Level lower = THRESHOLD_LEVELS.get(i - 1);
            Level upper = THRESHOLD_LEVELS.get(i);
            if (ms.get(lower) < ms.get(upper)) {
                continue;
            }
            increasing = false;
            Position at = given.getOrDefault(upper, given.getOrDefault(lower, attributePosition));
            diagnostics.error(at, "thresholds_ms must increase from host to light_wan, but " + describe(upper, ms, given)
                    + " is not above " + describe(lower, ms, given));
        }
        return increasing;
    }

    private static String describe(Level level, Map<Level, Double> ms, Map<Level, Position> given) {
        String value = level.configName() + " " + DecimalText.of(ms.get(level));
        return given.containsKey(level) ? value : value + " (the default)";
    }

    /** The level of a pair, reported if unknown, not among {@code accepted} or given twice. */
    private Optional<Level> level(Pair pair, Map<Level, Position> given, List<Level> accepted) {
        List<String> names = accepted.stream().map(Level::configName).toList();
        Optional<Level> level = values.keyword(pair.key(), "level", Level::fromConfigName, names);
        if (level.isEmpty()) {
            return level;
        }
        if (!accepted.contains(level.get())) {
            diagnostics.error(pair.key().position(), "level " + level.get().configName() + " has no threshold: links slower than "
                    + "light_wan's threshold are heavy_wan");
            return Optional.empty();
        }
        Position first = given.putIfAbsent(level.get(), pair.key().position());
        if (first != null) {
            diagnostics.error(pair.key().position(), "level " + level.get().configName() + " is given twice; the first is at " + first);
            return Optional.empty();
        }
        return level;
    }
}
