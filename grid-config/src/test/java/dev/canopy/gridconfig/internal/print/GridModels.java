package dev.canopy.gridconfig.internal.print;

import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.Algorithm;
import dev.canopy.gridconfig.model.Fabric;
import dev.canopy.gridconfig.model.GlobusEnvironment;
import dev.canopy.gridconfig.model.GramAttributes;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.HostSlots;
import dev.canopy.gridconfig.model.LevelAlgorithms;
import dev.canopy.gridconfig.model.Link;
import dev.canopy.gridconfig.model.LinkDirection;
import dev.canopy.gridconfig.model.MulticastRange;
import dev.canopy.gridconfig.model.Subjob;
import dev.canopy.gridconfig.model.Thresholds;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Generates valid grid models of every shape the parser can produce, for property tests. */
final class GridModels {

    /** Letters, RSL's special characters, both quotes, white space and non-ASCII: names must survive quoting. */
    private static final String NAME_CHARS = "abcXYZ019 -_.:/()=<>!&|+\"'$#*\té\n";

    private GridModels() {
    }

    static Arbitrary<String> names() {
        return Arbitraries.strings().withChars(NAME_CHARS.toCharArray()).ofMinLength(1).ofMaxLength(12)
                .filter(s -> !s.isBlank());
    }

    /** A range inside 239.0.0.0/8 of any prefix from /8 to /32, and one port or a port range. */
    static MulticastRange multicastRange(Random random) {
        int prefix = 8 + random.nextInt(25);
        int network = (239 << 24 | random.nextInt(1 << 24)) & (-1 << (32 - prefix));
        int firstPort = 1024 + random.nextInt(65_535 - 1024 + 1);
        int lastPort = random.nextBoolean() ? firstPort : firstPort + random.nextInt(65_535 - firstPort + 1);
        return new MulticastRange(network, prefix, firstPort, lastPort);
    }

    static Arbitrary<Double> decimals() {
        return Arbitraries.oneOf(
                Arbitraries.doubles().between(0, 1000).ofScale(4),
                Arbitraries.of(0.0, 1e-9, 0.1, 1e12, 123456.789));
    }

    /**
     * Models built in one step from independent parts (no flatMap: jqwik's generators for dependent
     * arbitraries are rebuilt per sample and made generation the slowest part of the test).
     */
    static Arbitrary<GridModel> models() {
        return Combinators.combine(names(), decimals(), levels(), thresholds(), sitePools(), subjobSpecs(),
                Arbitraries.longs(), decimals().list().ofSize(12))
                .as((name, rtt, levels, thresholds, sites, specs, seed, numbers) -> {
                    List<Subjob> subjobs = new ArrayList<>();
                    for (int i = 0; i < specs.size(); i++) {
                        SubjobSpec spec = specs.get(i);
                        subjobs.add(spec.at(sites.get(spec.siteIndex() % sites.size()), i));
                    }
                    List<SiteSpec> used = sites.stream()
                            .filter(site -> subjobs.stream().anyMatch(s -> s.site().equals(site.name()))).toList();
                    return new GridModel(name, rtt, levels, thresholds, subjobs, links(used, new Random(seed), numbers),
                            multicastRange(new Random(~seed)));
                });
    }

    private static Arbitrary<LevelAlgorithms> levels() {
        return Arbitraries.randomValue(random -> {
            Map<Level, Algorithm> chosen = new EnumMap<>(Level.class);
            for (Level level : Level.values()) {
                List<Algorithm> allowed = Algorithm.allowedAtLevel(level);
                chosen.put(level, allowed.get(random.nextInt(allowed.size())));
            }
            return new LevelAlgorithms(chosen);
        });
    }

    private static Arbitrary<Thresholds> thresholds() {
        return Arbitraries.doubles().between(0.0001, 50).ofScale(4).list().ofSize(4).map(steps -> new Thresholds(
                steps.get(0) - 0.0001, steps.get(0) + steps.get(1), steps.get(0) + steps.get(1) + steps.get(2),
                steps.get(0) + steps.get(1) + steps.get(2) + steps.get(3)));
    }

    /** A site: its name, wan group and uplink, shared by every subjob placed there. */
    record SiteSpec(String name, String wanGroup, OptionalDouble uplinkMbps) {
    }

    private static Arbitrary<List<SiteSpec>> sitePools() {
        Arbitrary<OptionalDouble> uplinks = Arbitraries.oneOf(Arbitraries.just(OptionalDouble.empty()),
                Arbitraries.doubles().between(0.5, 10_000).ofScale(2).map(OptionalDouble::of));
        return Combinators.combine(names(), names(), uplinks).as(SiteSpec::new)
                .list().ofMinSize(1).ofMaxSize(4).uniqueElements(SiteSpec::name);
    }

    /** A subjob before its site is chosen from the pool. */
    record SubjobSpec(String label, int count, List<HostSlots> hosts, int siteIndex, List<String> lanAndCluster,
            Fabric fabric, Map<String, String> environment, Map<String, List<String>> gram) {

        /**
         * The subjob at {@code site}, the {@code index}-th of the job. Derived from the generated values,
         * some subjobs also carry the Globus variables and a resource manager contact, consistent with the model.
         */
        Subjob at(SiteSpec site, int index) {
            Map<String, String> env = new LinkedHashMap<>(environment);
            Map<String, List<String>> gramAttributes = new LinkedHashMap<>(gram);
            if (fabric == Fabric.IB) {
                env.put(GlobusEnvironment.LAN_ID, lanAndCluster.get(0));
            }
            if (count % 2 == 0) {
                env.put(GlobusEnvironment.SUBJOB_INDEX, Integer.toString(index));
            }
            if (count % 3 == 0) {
                gramAttributes.put(GramAttributes.RESOURCE_MANAGER_CONTACT, List.of("node" + index + ".example:2119/jobmanager-pbs"));
            }
            return new Subjob(label, count, hosts, site.wanGroup(), site.name(), lanAndCluster.get(0), lanAndCluster.get(1),
                    fabric, site.uplinkMbps(), env, gramAttributes);
        }
    }

    private static Arbitrary<List<SubjobSpec>> subjobSpecs() {
        Arbitrary<List<HostSlots>> hosts = Combinators.combine(names(), Arbitraries.integers().between(1, 8))
                .as(HostSlots::new).list().ofMinSize(1).ofMaxSize(3).uniqueElements(HostSlots::name);
        Arbitrary<Map<String, String>> environment = Arbitraries.maps(
                names().filter(n -> !n.startsWith("GLOBUS_")), Arbitraries.strings().ofMaxLength(8)).ofMaxSize(3);
        Arbitrary<Map<String, List<String>>> gram = Arbitraries.maps(
                Arbitraries.of("executable", "arguments", "directory", "jobtype", "maxwalltime", "gramMyJob"),
                Arbitraries.strings().ofMaxLength(6).list().ofMinSize(1).ofMaxSize(3)).ofMaxSize(3);
        return Combinators.combine(names(), Arbitraries.integers().between(1, 40), hosts, Arbitraries.integers().between(0, 3),
                        names().list().ofSize(2), Arbitraries.of(Fabric.class), environment, gram)
                .as(SubjobSpec::new)
                .list().ofMinSize(1).ofMaxSize(5).uniqueElements(SubjobSpec::label);
    }

    /** Links over distinct pairs of sites, never two describing the same direction. */
    private static List<Link> links(List<SiteSpec> sites, Random random, List<Double> numbers) {
        List<Link> links = new ArrayList<>();
        for (int i = 0; i < sites.size(); i++) {
            for (int j = i + 1; j < sites.size(); j++) {
                int shape = random.nextInt(4);
                String a = sites.get(i).name();
                String b = sites.get(j).name();
                double rtt = numbers.get(random.nextInt(numbers.size()));
                double jitter = numbers.get(random.nextInt(numbers.size()));
                double loss = random.nextInt(1001) / 1000.0;
                OptionalDouble bandwidth = random.nextBoolean() ? OptionalDouble.empty() : OptionalDouble.of(1 + random.nextInt(9999));
                if (shape == 1) {
                    links.add(new Link(a, b, rtt, jitter, loss, bandwidth, LinkDirection.BOTH_WAYS));
                } else if (shape >= 2) {
                    links.add(new Link(a, b, rtt, jitter, loss, bandwidth, LinkDirection.ONE_WAY));
                    if (shape == 3) {
                        links.add(new Link(b, a, jitter, rtt, 0, OptionalDouble.empty(), LinkDirection.ONE_WAY));
                    }
                }
            }
        }
        return links;
    }
}
