package dev.canopy.gridconfig.model;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.Level;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * A validated level file: the grid a job runs on, every default filled in. Built by
 * {@link dev.canopy.gridconfig.GridConfigs} from a file, or directly (the constructor enforces the
 * invariants the rest of Canopy relies on and throws {@link IllegalArgumentException} otherwise).
 *
 * @param defaultRttMs RTT between sites that have no link
 * @param subjobs in file order, which is the order of global process indices
 * @param multicast the addresses and ports the grid's jobs lease for their multicast groups
 */
public record GridModel(String name, double defaultRttMs, LevelAlgorithms levels, Thresholds thresholds,
        List<Subjob> subjobs, List<Link> links, MulticastRange multicast) {

    /** More processes than this is surely a mistake in an emulated grid. */
    public static final int MAX_PROCESSES = 1_000_000;

    public GridModel {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(levels, "levels");
        Objects.requireNonNull(thresholds, "thresholds");
        Objects.requireNonNull(multicast, "multicast");
        if (name.isBlank()) {
            throw new IllegalArgumentException("grid name must not be blank");
        }
        if (!(defaultRttMs >= 0 && Double.isFinite(defaultRttMs))) {
            throw new IllegalArgumentException("default_rtt_ms must be finite and >= 0, got " + defaultRttMs);
        }
        defaultRttMs += 0.0; // -0.0 becomes 0.0, so equal models print and compare equal
        subjobs = List.copyOf(subjobs);
        links = List.copyOf(links);
        if (subjobs.isEmpty()) {
            throw new IllegalArgumentException("grid " + name + " has no subjobs");
        }
        requireUniqueLabels(subjobs);
        requireUniqueSubjobIndices(subjobs);
        requireProcessLimit(subjobs);
        Map<String, Site> sites = sitesOf(subjobs);
        requireKnownDistinctLinks(links, sites.keySet());
    }

    /** A model with the default multicast range ({@link MulticastRange#DEFAULT}). */
    public GridModel(String name, double defaultRttMs, LevelAlgorithms levels, Thresholds thresholds,
            List<Subjob> subjobs, List<Link> links) {
        this(name, defaultRttMs, levels, thresholds, subjobs, links, MulticastRange.DEFAULT);
    }

    /** The sites in order of their first subjob. */
    public List<Site> sites() {
        return List.copyOf(sitesOf(subjobs).values());
    }

    public Optional<Site> site(String siteName) {
        return Optional.ofNullable(sitesOf(subjobs).get(siteName));
    }

    public Optional<Subjob> subjob(String label) {
        return subjobs.stream().filter(s -> s.label().equals(label)).findFirst();
    }

    public Algorithm algorithmAt(Level level) {
        return levels.at(level);
    }

    /** The number of processes of the job: the sum of the subjobs' counts. */
    public int processCount() {
        return subjobs.stream().mapToInt(Subjob::count).sum();
    }

    /**
     * Every process of the job with its coordinates, in global index order: subjobs in file order,
     * each spread over its hosts as {@link Subjob#hostOf(int)} describes.
     */
    public List<ProcessPlacement> processes() {
        List<ProcessPlacement> placements = new ArrayList<>(processCount());
        for (Subjob subjob : subjobs) {
            for (int index = 0; index < subjob.count(); index++) {
                Coordinates coordinates = new Coordinates(subjob.wanGroup(), subjob.site(), subjob.lanId(),
                        subjob.cluster(), subjob.hostOf(index));
                placements.add(new ProcessPlacement(subjob.label(), index, placements.size(), coordinates,
                        subjob.environment()));
            }
        }
        return placements;
    }

    /**
     * The NIC bandwidth of the host at {@code at}, shared by all its processes' traffic to other hosts: the
     * {@code nic_mbps} of a subjob placing processes on that host; empty when unlimited or not given.
     */
    public OptionalDouble nicMbps(Coordinates at) {
        return subjobs.stream().filter(subjob -> subjob.holds(at) && subjob.nicMbps().isPresent())
                .map(Subjob::nicMbps).findFirst().orElse(OptionalDouble.empty());
    }

    /**
     * The link for traffic from {@code fromSite} to {@code toSite}: the link section that carries
     * that direction, else {@code default_rtt_ms} with no jitter, no loss and unlimited bandwidth.
     *
     * @throws IllegalArgumentException if a site is not in this grid or both are the same site
     */
    public LinkSpec linkBetween(String fromSite, String toSite) {
        Set<String> known = sitesOf(subjobs).keySet();
        for (String site : List.of(fromSite, toSite)) {
            if (!known.contains(site)) {
                throw new IllegalArgumentException("no site " + site + " in grid " + name + "; sites are " + known);
            }
        }
        if (fromSite.equals(toSite)) {
            throw new IllegalArgumentException("a link joins two different sites, got " + fromSite + " twice");
        }
        return links.stream()
                .filter(link -> link.carries(fromSite, toSite))
                .findFirst()
                .map(link -> link.toSpec(fromSite, toSite))
                .orElseGet(() -> new LinkSpec(fromSite, toSite, defaultRttMs, 0, 0, OptionalDouble.empty(), LinkOrigin.DEFAULT));
    }

    private static void requireUniqueLabels(List<Subjob> subjobs) {
        Set<String> labels = new HashSet<>();
        for (Subjob subjob : subjobs) {
            if (!labels.add(subjob.label())) {
                throw new IllegalArgumentException("two subjobs are labelled " + subjob.label());
            }
        }
    }

    private static void requireUniqueSubjobIndices(List<Subjob> subjobs) {
        Set<Integer> indices = new HashSet<>();
        for (Subjob subjob : subjobs) {
            GlobusEnvironment.subjobIndex(subjob.environment()).ifPresent(index -> {
                if (!indices.add(index)) {
                    throw new IllegalArgumentException("two subjobs have " + GlobusEnvironment.SUBJOB_INDEX + " " + index);
                }
            });
        }
    }

    private static void requireProcessLimit(List<Subjob> subjobs) {
        long total = subjobs.stream().mapToLong(Subjob::count).sum();
        if (total > MAX_PROCESSES) {
            throw new IllegalArgumentException(total + " processes exceed the limit of " + MAX_PROCESSES);
        }
    }

    /** Groups subjobs by site; a site's subjobs must agree on wan_group and uplink. */
    private static Map<String, Site> sitesOf(List<Subjob> subjobs) {
        Map<String, List<Subjob>> bySite = new LinkedHashMap<>();
        for (Subjob subjob : subjobs) {
            bySite.computeIfAbsent(subjob.site(), s -> new ArrayList<>()).add(subjob);
        }
        Map<String, Site> sites = new LinkedHashMap<>();
        bySite.forEach((siteName, members) -> {
            Subjob first = members.get(0);
            for (Subjob other : members) {
                if (!other.wanGroup().equals(first.wanGroup()) || !other.uplinkMbps().equals(first.uplinkMbps())) {
                    throw new IllegalArgumentException("subjobs " + first.label() + " and " + other.label() + " of site "
                            + siteName + " disagree on wan_group or uplink_mbps");
                }
            }
            sites.put(siteName, new Site(siteName, first.wanGroup(), first.uplinkMbps(),
                    members.stream().map(Subjob::label).toList(), members.stream().mapToInt(Subjob::count).sum()));
        });
        return sites;
    }

    private static void requireKnownDistinctLinks(List<Link> links, Set<String> sites) {
        Set<List<String>> directions = new HashSet<>();
        for (Link link : links) {
            if (!sites.contains(link.a()) || !sites.contains(link.b())) {
                throw new IllegalArgumentException("link " + link.a() + "-" + link.b() + " names a site not in " + sites);
            }
            boolean fresh = directions.add(List.of(link.a(), link.b()));
            if (link.direction() == LinkDirection.BOTH_WAYS) {
                fresh &= directions.add(List.of(link.b(), link.a()));
            }
            if (!fresh) {
                throw new IllegalArgumentException("two links describe traffic between " + link.a() + " and " + link.b());
            }
        }
    }
}
