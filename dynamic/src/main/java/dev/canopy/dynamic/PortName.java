package dev.canopy.dynamic;

import java.util.Objects;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A port opened with {@link NameService#openPort()}: {@code canopy-port:<namespace>/<id>}, the text a server
 * hands to clients (or publishes under a service name). The id is random, so ports are not guessable from
 * each other.
 */
public record PortName(String namespace, String id) {

    static final String PREFIX = "canopy-port:";
    private static final Pattern ID = Pattern.compile("p-[0-9a-f]{32}");

    public PortName {
        DynamicOptions.requireNamespace(namespace);
        Objects.requireNonNull(id, "id");
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("port id '" + id + "' is not one openPort made (p- and 32 hex digits)");
        }
    }

    static PortName random(String namespace) {
        return new PortName(namespace, "p-" + UUID.randomUUID().toString().replace("-", ""));
    }

    /** Reads a port name as {@link #toString()} writes it; anything else is refused with a message naming the form. */
    public static PortName parse(String text) {
        if (text == null || !text.startsWith(PREFIX) || text.indexOf('/') < 0) {
            throw new IllegalArgumentException("'" + text + "' is not a port name: expected " + PREFIX
                    + "<namespace>/<id> as openPort() returns it");
        }
        String rest = text.substring(PREFIX.length());
        int slash = rest.indexOf('/');
        try {
            return new PortName(rest.substring(0, slash), rest.substring(slash + 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not a port name: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return PREFIX + namespace + "/" + id;
    }
}
