package dev.canopy.probes.internal.schedule;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which links of a job are probed, computed identically by every node from the membership alone.
 *
 * <ul>
 *   <li>Inside a site: a full mesh, or in a site of more than {@code localMeshDegree + 1} nodes a ring where
 *       each node probes its {@code localMeshDegree / 2} successors in rank order (and is probed by as many
 *       predecessors).</li>
 *   <li>Across sites: only between site representatives, the first member of each site in rank order (so a
 *       leaving representative is replaced by the next one).</li>
 *   <li>Cross-checks: per site, {@code crossChecksPerSite} links between one of its ordinary members and an
 *       ordinary member of another site, drawn anew every rotation round from the seed.</li>
 * </ul>
 *
 * A node's links thus number at most {@code localMeshDegree + sites - 1 + a few cross-checks}, whatever the
 * number of nodes; the probe budget then bounds how often each is probed.
 */
public final class ProbePlan {

    private final ScheduleSettings settings;
    private final Map<String, Member> representatives;
    private final List<ProbeLink> links;
    private final Map<NodeId, Integer> degrees = new HashMap<>();

    private ProbePlan(ScheduleSettings settings, Map<String, Member> representatives, List<ProbeLink> links) {
        this.settings = settings;
        this.representatives = representatives;
        this.links = links;
        for (ProbeLink link : links) {
            degrees.merge(link.link().a(), 1, Integer::sum);
            degrees.merge(link.link().b(), 1, Integer::sum);
        }
    }

    /** The plan for {@code members} in cross-check round {@code round}. */
    public static ProbePlan of(Collection<Member> members, ScheduleSettings settings, long round) {
        Map<String, List<Member>> sites = new TreeMap<>();
        for (Member member : new TreeSet<>(members)) {
            sites.computeIfAbsent(siteKey(member), key -> new ArrayList<>()).add(member);
        }
        Map<String, Member> representatives = new LinkedHashMap<>();
        sites.forEach((site, inRankOrder) -> representatives.put(site, inRankOrder.get(0)));

        Set<ProbeLink> links = new LinkedHashSet<>();
        sites.values().forEach(site -> addLocalMesh(site, settings.localMeshDegree(), links));
        List<Member> reps = new ArrayList<>(representatives.values());
        for (int i = 0; i < reps.size(); i++) {
            for (int j = i + 1; j < reps.size(); j++) {
                links.add(ProbeLink.between(reps.get(i), reps.get(j), LinkRole.REPRESENTATIVES));
            }
        }
        addCrossChecks(new ArrayList<>(sites.values()), settings, round, links);
        return new ProbePlan(settings, representatives, List.copyOf(links));
    }

    /** The key of the site a member belongs to: its wan group and site. */
    public static String siteKey(Member member) {
        return member.coordinates().groupKey(Level.LAN);
    }

    private static void addLocalMesh(List<Member> site, int degree, Set<ProbeLink> links) {
        int n = site.size();
        int successors = n - 1 <= degree ? n - 1 : Math.max(1, degree / 2);
        for (int i = 0; i < n; i++) {
            for (int step = 1; step <= successors; step++) {
                Member other = site.get((i + step) % n);
                if (other != site.get(i)) {
                    links.add(ProbeLink.between(site.get(i), other, LinkRole.LOCAL_MESH));
                }
            }
        }
    }

    private static void addCrossChecks(List<List<Member>> sites, ScheduleSettings settings, long round,
                                       Set<ProbeLink> links) {
        if (sites.size() < 2) {
            return;
        }
        SplittableRandom random = new SplittableRandom(settings.seed() * 0x9E3779B97F4A7C15L + round);
        for (int s = 0; s < sites.size(); s++) {
            List<Member> site = sites.get(s);
            for (int check = 0; check < settings.crossChecksPerSite() && site.size() > 1; check++) {
                Member from = site.get(1 + random.nextInt(site.size() - 1));
                int otherIndex = (s + 1 + random.nextInt(sites.size() - 1)) % sites.size();
                List<Member> other = sites.get(otherIndex);
                Member to = other.size() > 1 ? other.get(1 + random.nextInt(other.size() - 1)) : other.get(0);
                links.add(ProbeLink.between(from, to, LinkRole.CROSS_CHECK));
            }
        }
    }

    public List<ProbeLink> links() {
        return links;
    }

    /** The links {@code node} sends probes on. */
    public List<ProbeLink> linksOwnedBy(NodeId node) {
        return links.stream().filter(l -> l.owner().id().equals(node)).toList();
    }

    /** Every link with {@code node} at one end, owned or answered. */
    public List<ProbeLink> linksOf(NodeId node) {
        return links.stream().filter(l -> l.link().touches(node)).toList();
    }

    /** Representatives by site key, in site order. */
    public Map<String, Member> representatives() {
        return representatives;
    }

    public Optional<Member> representativeOf(String siteKey) {
        return Optional.ofNullable(representatives.get(siteKey));
    }

    /** How many planned links touch {@code node}. */
    public int degree(NodeId node) {
        return degrees.getOrDefault(node, 0);
    }

    /**
     * The mean round-trip probe period of {@code link}: the configured period, stretched when either end
     * has more links than its probe budget allows at that period.
     */
    public Duration latencyPeriod(ProbeLink link) {
        return stretched(settings.latencyPeriod(), link);
    }

    /** The mean bandwidth probe period of {@code link}, stretched like the latency period. */
    public Duration bandwidthPeriod(ProbeLink link) {
        return stretched(settings.bandwidthPeriod(), link);
    }

    /** The probe load the plan puts on {@code node} (round-trip probes; bandwidth transfers come on top). */
    public ProbeLoad plannedLoad(NodeId node) {
        double probesPerSecond = 0;
        for (ProbeLink link : linksOf(node)) {
            probesPerSecond += 1e9 / latencyPeriod(link).toNanos();
        }
        return new ProbeLoad(probesPerSecond, 2 * probesPerSecond);
    }

    private Duration stretched(Duration period, ProbeLink link) {
        int busiestEnd = Math.max(degree(link.link().a()), degree(link.link().b()));
        long budgetNanos = (long) Math.ceil(busiestEnd / settings.maxProbesPerNodePerSecond() * 1e9);
        return period.toNanos() >= budgetNanos ? period : Duration.ofNanos(budgetNanos);
    }
}
