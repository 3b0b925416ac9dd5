package dev.canopy.gridconfig.model;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** The two environment variables of MPICH-G2 subjobs that Canopy reads. */
public final class GlobusEnvironment {

    /** The LAN of the subjob: the same as {@code lan_id}. */
    public static final String LAN_ID = "GLOBUS_LAN_ID";

    /** The subjob's index in the job, a whole number from 0; names the subjob when it has no label. */
    public static final String SUBJOB_INDEX = "GLOBUS_DUROC_SUBJOB_INDEX";

    /** At most nine digits, so every index fits an int. */
    private static final Pattern INDEX = Pattern.compile("\\d{1,9}");

    private GlobusEnvironment() {
    }

    /** Whether {@code text} is a valid {@link #SUBJOB_INDEX} value. */
    public static boolean isSubjobIndex(String text) {
        return INDEX.matcher(text).matches();
    }

    /** The subjob index set in {@code environment}, if it is set and valid. */
    public static Optional<Integer> subjobIndex(Map<String, String> environment) {
        return Optional.ofNullable(environment.get(SUBJOB_INDEX)).filter(GlobusEnvironment::isSubjobIndex).map(Integer::valueOf);
    }
}
