package dev.canopy.gridconfig.internal.hosts;

import dev.canopy.gridconfig.Excerpt;
import java.util.Optional;

/**
 * What a host name in a hostfile or a Slurm node list may be: a DNS name or an IPv4 address, letters, digits,
 * {@code .}, {@code -} and {@code _}, starting with a letter or digit, at most 253 characters. Anything else
 * (a user name {@code user@host}, a path, an IPv6 address, which Hydra's {@code host:N} cannot carry) is refused
 * with the reason, so no odd character reaches a level file or a log.
 */
final class HostNames {

    static final int MAX_LENGTH = 253;

    private HostNames() {
    }

    /** Why {@code name} cannot be a host name, or empty when it can. */
    static Optional<String> problem(String name) {
        if (name.isEmpty()) {
            return Optional.of("a host name is empty");
        }
        if (name.length() > MAX_LENGTH) {
            return Optional.of("host name " + Excerpt.quoted(name) + " is longer than " + MAX_LENGTH + " characters");
        }
        if (!isAsciiLetterOrDigit(name.charAt(0))) {
            return Optional.of("host name " + Excerpt.quoted(name) + " must start with a letter or a digit");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!isAsciiLetterOrDigit(c) && c != '.' && c != '-' && c != '_') {
                return Optional.of("host name " + Excerpt.quoted(name) + " has the character " + Excerpt.quoted(String.valueOf(c))
                        + "; host names are letters, digits, '.', '-' and '_' (user@host and IPv6 addresses are not supported)");
            }
        }
        return Optional.empty();
    }

    private static boolean isAsciiLetterOrDigit(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }

    /** {@code name} as an IPv4 address (four decimal parts 0 to 255), or empty when it is a DNS name. */
    static Optional<int[]> ipv4(String name) {
        String[] parts = name.split("\\.", -1);
        if (parts.length != 4) {
            return Optional.empty();
        }
        int[] octets = new int[4];
        for (int i = 0; i < 4; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return Optional.empty();
            }
            octets[i] = Integer.parseInt(part);
            if (octets[i] > 255) {
                return Optional.empty();
            }
        }
        return Optional.of(octets);
    }
}
