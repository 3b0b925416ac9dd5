package dev.canopy.gridconfig.internal.hosts;

import dev.canopy.gridconfig.Excerpt;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * How hosts are grouped into sites, as the user says ({@code --site-by}):
 *
 * <ul>
 *   <li>{@code domain}: the host's domain, the name without its first label ({@code n1.lyon.grid.example} is
 *       at site {@code lyon.grid.example}); a name without a dot or an IP address has none;</li>
 *   <li>{@code prefix:REGEX}: the part of the name that {@code REGEX} matches at its start, or the regex's
 *       first group when it has one ({@code prefix:[a-z]+} puts {@code gpu07} at {@code gpu};
 *       {@code prefix:(rack\d+)-} puts {@code rack2-n07} at {@code rack2});</li>
 *   <li>{@code subnet:/N}: the IPv4 network of the first N bits ({@code subnet:/24} puts {@code 10.1.2.7}
 *       at {@code 10.1.2.0/24}). Only for hosts written as IPv4 addresses: names are not resolved, since the
 *       answer would depend on this machine's DNS and could differ on the hosts themselves.</li>
 * </ul>
 */
public sealed interface SiteRule {

    /** The site of {@code host}, or empty when this rule cannot place it ({@link #cannotPlace} says why). */
    Optional<String> siteOf(String host);

    /** Why {@code host} has no site under this rule, and what to do. */
    String cannotPlace(String host);

    /** The rule as the user wrote it, e.g. {@code prefix:[a-z]+}. */
    String spec();

    /**
     * Reads {@code domain}, {@code prefix:REGEX} or {@code subnet:/N}.
     *
     * @throws IllegalArgumentException naming the forms when {@code spec} is none of them
     */
    static SiteRule parse(String spec) {
        Objects.requireNonNull(spec, "spec");
        if (spec.equals("domain")) {
            return new Domain();
        }
        if (spec.startsWith("prefix:")) {
            String regex = spec.substring("prefix:".length());
            if (regex.isEmpty()) {
                throw new IllegalArgumentException("prefix: needs a regular expression, e.g. prefix:[a-z]+");
            }
            try {
                return new Prefix(Pattern.compile(regex));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("prefix:" + Excerpt.of(regex) + " is not a regular expression: "
                        + e.getDescription(), e);
            }
        }
        if (spec.startsWith("subnet:/")) {
            String bits = spec.substring("subnet:/".length());
            if (bits.isEmpty() || bits.length() > 2 || !bits.chars().allMatch(c -> c >= '0' && c <= '9')
                    || Integer.parseInt(bits) > 32) {
                throw new IllegalArgumentException("subnet:/" + Excerpt.of(bits) + " needs a prefix length 0 to 32, e.g."
                        + " subnet:/24");
            }
            return new Subnet(Integer.parseInt(bits));
        }
        throw new IllegalArgumentException(Excerpt.quoted(spec) + " is not a site rule; use domain, prefix:REGEX"
                + " (e.g. prefix:[a-z]+) or subnet:/N (e.g. subnet:/24, for hosts written as IPv4 addresses)");
    }

    /** The site is the host's domain. */
    record Domain() implements SiteRule {

        @Override
        public Optional<String> siteOf(String host) {
            int dot = host.indexOf('.');
            if (dot < 0 || HostNames.ipv4(host).isPresent() || dot == host.length() - 1) {
                return Optional.empty();
            }
            return Optional.of(host.substring(dot + 1));
        }

        @Override
        public String cannotPlace(String host) {
            return "host " + host + " has no domain (" + (HostNames.ipv4(host).isPresent() ? "it is an IP address"
                    : "its name has no dot") + "); write the host's full name (" + host + ".cluster.example), or group"
                    + " hosts with --site-by prefix:REGEX or subnet:/N";
        }

        @Override
        public String spec() {
            return "domain";
        }
    }

    /** The site is what a regular expression matches at the start of the host name (or its first group). */
    record Prefix(Pattern pattern) implements SiteRule {

        public Prefix {
            Objects.requireNonNull(pattern, "pattern");
        }

        @Override
        public Optional<String> siteOf(String host) {
            Matcher matcher = pattern.matcher(host);
            if (!matcher.lookingAt()) {
                return Optional.empty();
            }
            String site = matcher.groupCount() >= 1 ? matcher.group(1) : matcher.group();
            return site == null || site.isEmpty() ? Optional.empty() : Optional.of(site);
        }

        @Override
        public String cannotPlace(String host) {
            return "prefix:" + Excerpt.of(pattern.pattern()) + " matches nothing at the start of host " + host
                    + "; change the expression so that it matches every host's site part";
        }

        @Override
        public String spec() {
            return "prefix:" + pattern.pattern();
        }
    }

    /** The site is the host's IPv4 network of {@code bits} bits. */
    record Subnet(int bits) implements SiteRule {

        public Subnet {
            if (bits < 0 || bits > 32) {
                throw new IllegalArgumentException("a prefix length is 0 to 32, got " + bits);
            }
        }

        @Override
        public Optional<String> siteOf(String host) {
            return HostNames.ipv4(host).map(octets -> {
                long address = ((long) octets[0] << 24) | (octets[1] << 16) | (octets[2] << 8) | octets[3];
                long network = bits == 0 ? 0 : address & (0xFFFFFFFFL << (32 - bits)) & 0xFFFFFFFFL;
                return (network >>> 24) + "." + ((network >>> 16) & 0xFF) + "." + ((network >>> 8) & 0xFF) + "."
                        + (network & 0xFF) + "/" + bits;
            });
        }

        @Override
        public String cannotPlace(String host) {
            return "host " + host + " is not written as an IPv4 address; subnet:/" + bits + " does not resolve names"
                    + " (the answer would depend on this machine's DNS): use --site-by domain or prefix:REGEX, or list"
                    + " the hosts by address";
        }

        @Override
        public String spec() {
            return "subnet:/" + bits;
        }
    }
}
