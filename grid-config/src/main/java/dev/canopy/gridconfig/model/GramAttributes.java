package dev.canopy.gridconfig.model;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Standard GRAM job attributes that MPICH-G2 files carry: kept in a subjob as given, without meaning to Canopy. */
public final class GramAttributes {

    /** The Globus contact of the subjob's resource manager, {@code host[:port][/service]}; gives the default site and host. */
    public static final String RESOURCE_MANAGER_CONTACT = "resourceManagerContact";

    /** The job attributes Canopy keeps without reading them. */
    public static final List<String> JOB_ATTRIBUTES = List.of("executable", "arguments", "directory", "jobtype", "stdin",
            "stdout", "stderr", "queue", "project", "maxtime", "maxwalltime", "maxcputime", "hostcount", "minmemory",
            "maxmemory", "dryrun", "savestate", "twophase", "restart", "gramMyJob");

    /** Every attribute a subjob's {@code gram} map may hold, spelt as the documentation spells them. */
    public static final List<String> KEPT = Stream.concat(JOB_ATTRIBUTES.stream(), Stream.of(RESOURCE_MANAGER_CONTACT)).toList();

    private GramAttributes() {
    }

    /** The host of a contact {@code host[:port][/service]}, empty if it names none. */
    public static Optional<String> contactHost(String contact) {
        String host = contact.split("[:/]", 2)[0].strip();
        return host.isEmpty() ? Optional.empty() : Optional.of(host);
    }
}
