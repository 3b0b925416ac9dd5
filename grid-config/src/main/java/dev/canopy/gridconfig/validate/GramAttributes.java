package dev.canopy.gridconfig.validate;

import java.util.List;

/** Standard GRAM job attributes that MPICH-G2 files carry: kept in a subjob as given, without meaning to Canopy. */
final class GramAttributes {

    static final List<String> NAMES = List.of("executable", "arguments", "directory", "jobtype", "stdin", "stdout",
            "stderr", "queue", "project", "maxtime", "maxwalltime", "maxcputime", "hostcount", "minmemory", "maxmemory",
            "dryrun", "savestate", "twophase", "restart", "gramMyJob");

    private GramAttributes() {
    }
}
