package dev.canopy.core.node;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

/**
 * Creates the Vert.x instances Canopy nodes run on. Vert.x resolves host names with its own DNS
 * client, which binds a UDP socket on every interface (the wildcard address) the first time an event
 * loop resolves anything, even an IP address such as the 127.0.0.1 a node was told to use. Canopy
 * addresses are IP addresses or names the system resolver knows, so nodes use the system resolver
 * instead and bind nothing but their configured address. (A name that needs a DNS query is then
 * resolved on the event loop, once per connection.)
 */
public final class CanopyVertx {

    /** The Vert.x system property that replaces its DNS client by the system resolver. */
    public static final String DISABLE_DNS_CLIENT = "vertx.disableDnsResolver";

    private CanopyVertx() {
    }

    /** A Vert.x instance with default options that binds no wildcard socket of its own. */
    public static Vertx create() {
        return create(new VertxOptions());
    }

    /** A Vert.x instance with {@code options} that binds no wildcard socket of its own. */
    public static Vertx create(VertxOptions options) {
        useSystemResolver();
        return Vertx.vertx(options);
    }

    /**
     * Makes Vert.x instances created from now on in this JVM use the system resolver, unless the user set
     * {@value #DISABLE_DNS_CLIENT} explicitly.
     */
    public static void useSystemResolver() {
        if (System.getProperty(DISABLE_DNS_CLIENT) == null) {
            System.setProperty(DISABLE_DNS_CLIENT, "true");
        }
    }
}
