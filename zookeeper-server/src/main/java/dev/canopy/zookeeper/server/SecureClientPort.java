package dev.canopy.zookeeper.server;

import dev.canopy.core.security.tls.ZooKeeperTls;
import io.netty.handler.ssl.SslContext;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import javax.net.ssl.SSLException;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.common.X509Exception;
import org.apache.zookeeper.common.ZKConfig;
import org.apache.zookeeper.server.NettyServerCnxnFactory;
import org.apache.zookeeper.server.ServerCnxnFactory;

/**
 * The embedded server's TLS port: ZooKeeper's Netty connection factory, given its TLS settings directly.
 *
 * <p>ZooKeeper 3.9 reads a server's {@code zookeeper.ssl.*} settings from JVM-wide system properties only (a
 * {@code zoo.cfg} puts them there too): for each connection its factory asks its {@code ClientX509Util} for a
 * server context made from {@code new ZKConfig()}, that is, from the system properties. Those would reach every
 * ZooKeeper client and server of this JVM, so instead this class gives the factory an {@code X509Util} that makes
 * the server context from {@link ZooKeeperTls#serverConfig()}. It replaces one private field of ZooKeeper's
 * factory; {@code ZooKeeperTlsTest} fails if a new ZooKeeper moves it.
 */
final class SecureClientPort {

    private SecureClientPort() {
    }

    /** A Netty connection factory for a TLS-only port with {@code tls}'s server key; configure it with secure = true. */
    static ServerCnxnFactory factory(ZooKeeperTls tls) {
        ZKConfig settings = tls.serverConfig();
        try {
            Constructor<NettyServerCnxnFactory> constructor = NettyServerCnxnFactory.class.getDeclaredConstructor();
            constructor.setAccessible(true);
            NettyServerCnxnFactory factory = constructor.newInstance();
            Field util = NettyServerCnxnFactory.class.getDeclaredField("x509Util");
            util.setAccessible(true);
            ((ClientX509Util) util.get(factory)).close();
            util.set(factory, new FixedSettings(settings));
            return factory;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("this ZooKeeper version does not let Canopy give its embedded server TLS"
                    + " settings (" + e + "); run a ZooKeeper with a secureClientPort and give it with --zk", e);
        }
    }

    /** ZooKeeper's client-port TLS helper, with the server context made from given settings, not system properties. */
    private static final class FixedSettings extends ClientX509Util {

        private final ZKConfig settings;

        FixedSettings(ZKConfig settings) {
            this.settings = settings;
        }

        @Override
        public SslContext createNettySslContextForServer(ZKConfig ignored)
                throws X509Exception.SSLContextException, X509Exception.KeyManagerException,
                X509Exception.TrustManagerException, SSLException {
            return super.createNettySslContextForServer(settings);
        }
    }
}
