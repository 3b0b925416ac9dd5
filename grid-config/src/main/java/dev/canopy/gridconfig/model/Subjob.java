package dev.canopy.gridconfig.model;

import dev.canopy.gridconfig.Coordinates;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A group of processes started together at one place, with every default filled in.
 *
 * @param hosts the hosts the {@code count} processes are spread over, see {@link #hostOf(int)}
 * @param uplinkMbps the site's WAN access bandwidth; empty when unlimited
 * @param nicMbps the NIC bandwidth of each of the subjob's hosts, shared by all that host's traffic to other hosts;
 *     empty when unlimited
 * @param environment passed to every process, in file order
 * @param gram standard GRAM job attributes kept as given (e.g. {@code executable}), without meaning to Canopy
 */
public record Subjob(String label, int count, List<HostSlots> hosts, String wanGroup, String site, String lanId,
        String cluster, Fabric fabric, OptionalDouble uplinkMbps, OptionalDouble nicMbps, Map<String, String> environment,
        Map<String, List<String>> gram) {

    /** A subjob whose hosts' NICs are unlimited. */
    public Subjob(String label, int count, List<HostSlots> hosts, String wanGroup, String site, String lanId,
            String cluster, Fabric fabric, OptionalDouble uplinkMbps, Map<String, String> environment,
            Map<String, List<String>> gram) {
        this(label, count, hosts, wanGroup, site, lanId, cluster, fabric, uplinkMbps, OptionalDouble.empty(), environment, gram);
    }

    public Subjob {
        requireName(label, "label");
        requireName(wanGroup, "wan_group");
        requireName(site, "site");
        requireName(lanId, "lan_id");
        requireName(cluster, "cluster");
        Objects.requireNonNull(fabric, "fabric");
        Objects.requireNonNull(uplinkMbps, "uplinkMbps");
        if (count < 1) {
            throw new IllegalArgumentException("subjob " + label + " needs a count of at least 1, got " + count);
        }
        hosts = List.copyOf(hosts);
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("subjob " + label + " has no hosts");
        }
        if (uplinkMbps.isPresent() && !(uplinkMbps.getAsDouble() > 0 && Double.isFinite(uplinkMbps.getAsDouble()))) {
            throw new IllegalArgumentException("subjob " + label + ": uplink must be a positive number of Mbit/s, got " + uplinkMbps);
        }
        Objects.requireNonNull(nicMbps, "nicMbps");
        if (nicMbps.isPresent() && !(nicMbps.getAsDouble() > 0 && Double.isFinite(nicMbps.getAsDouble()))) {
            throw new IllegalArgumentException("subjob " + label + ": nic_mbps must be a positive number of Mbit/s, got " + nicMbps);
        }
        requireDistinctHosts(label, hosts);
        environment = orderedCopy(environment);
        requireReadableEnvironment(label, lanId, environment);
        LinkedHashMap<String, List<String>> gramCopy = new LinkedHashMap<>();
        gram.forEach((name, values) -> gramCopy.put(name, List.copyOf(values)));
        gram = Collections.unmodifiableMap(gramCopy);
        requireKeptGramAttributes(label, gram);
    }

    /**
     * The host of process {@code indexInSubjob}. Hosts are filled in order: the first host takes
     * as many processes as it has slots, then the next; when the count exceeds the slots of all
     * hosts, filling starts again at the first host (oversubscription, like an MPICH machine file).
     */
    public String hostOf(int indexInSubjob) {
        int totalSlots = hosts.stream().mapToInt(HostSlots::slots).sum();
        int remaining = Math.floorMod(indexInSubjob, totalSlots);
        for (HostSlots host : hosts) {
            if (remaining < host.slots()) {
                return host.name();
            }
            remaining -= host.slots();
        }
        throw new IllegalStateException("slot arithmetic lost process " + indexInSubjob + " of subjob " + label);
    }

    /** This subjob with its site's uplink bandwidth set to {@code mbps}. */
    public Subjob withUplinkMbps(OptionalDouble mbps) {
        return new Subjob(label, count, hosts, wanGroup, site, lanId, cluster, fabric, mbps, nicMbps, environment, gram);
    }

    /** Whether process coordinates {@code at} name one of this subjob's hosts. */
    public boolean holds(Coordinates at) {
        return site.equals(at.site()) && lanId.equals(at.lanId()) && cluster.equals(at.cluster())
                && hosts.stream().anyMatch(host -> host.name().equals(at.host()));
    }

    static <V> Map<String, V> orderedCopy(Map<String, V> map) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    private static void requireDistinctHosts(String label, List<HostSlots> hosts) {
        if (hosts.stream().map(HostSlots::name).distinct().count() != hosts.size()) {
            throw new IllegalArgumentException("subjob " + label + " lists a host twice: " + hosts);
        }
    }

    /** The variables Canopy reads must agree with the model, so that a printed model reads back the same. */
    private static void requireReadableEnvironment(String label, String lanId, Map<String, String> environment) {
        environment.keySet().forEach(name -> requireName(name, "environment variable name of subjob " + label));
        String lan = environment.getOrDefault(GlobusEnvironment.LAN_ID, lanId);
        if (!lan.equals(lanId)) {
            throw new IllegalArgumentException("subjob " + label + ": " + GlobusEnvironment.LAN_ID + " " + lan
                    + " disagrees with lan_id " + lanId);
        }
        String index = environment.get(GlobusEnvironment.SUBJOB_INDEX);
        if (index != null && !GlobusEnvironment.isSubjobIndex(index)) {
            throw new IllegalArgumentException("subjob " + label + ": " + GlobusEnvironment.SUBJOB_INDEX
                    + " must be a whole number, got " + index);
        }
    }

    private static void requireKeptGramAttributes(String label, Map<String, List<String>> gram) {
        gram.forEach((name, values) -> {
            if (!GramAttributes.KEPT.contains(name) || values.isEmpty()) {
                throw new IllegalArgumentException("subjob " + label + ": gram holds the attributes " + GramAttributes.KEPT
                        + ", each with at least one value; got " + name + " = " + values);
            }
        });
        List<String> contact = gram.get(GramAttributes.RESOURCE_MANAGER_CONTACT);
        if (contact != null && (contact.size() != 1 || GramAttributes.contactHost(contact.get(0)).isEmpty())) {
            throw new IllegalArgumentException("subjob " + label + ": resourceManagerContact must be one host[:port][/service], got "
                    + contact);
        }
    }

    private static void requireName(String value, String attribute) {
        Objects.requireNonNull(value, attribute);
        if (value.isBlank()) {
            throw new IllegalArgumentException(attribute + " must not be blank");
        }
    }
}
