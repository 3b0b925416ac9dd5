package dev.canopy.dynamic;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ports and service names in ZooKeeper, MPI-2 style, scoped to a namespace, and the exchange of group
 * records between the roots of an accept and a connect:
 * <pre>
 * /canopy/names                              shared: anyone may read, add and remove an empty namespace
 *   &lt;namespace&gt;                              the secret's credentials own it and everything below
 *     ports/&lt;port id&gt;                        ephemeral (the opener's session): the port is open
 *     services/&lt;service&gt;                      ephemeral (the publisher's session): {"service", "port"}
 *     pairings/&lt;port id&gt;-c&lt;seq&gt;               ephemeral (the connecting root's session): {"key"}, its X25519 public key
 *     pairings/&lt;port id&gt;-c&lt;seq&gt;.reply         ephemeral (the accepting root's session): {"key"}, its public key
 *     pairings/&lt;port id&gt;-c&lt;seq&gt;.connect       ephemeral: the connecting group's record, sealed with the pairing key
 *     pairings/&lt;port id&gt;-c&lt;seq&gt;.accept        ephemeral: the accepting group's record, sealed with the pairing key
 * </pre>
 * Every znode's content is sealed with the secret ({@link NameRecordSeal}) and checked field by field before use;
 * a namespace made with another secret is refused, naming the fix. Blocking ZooKeeper calls run on worker
 * threads ({@code executeBlocking}), never on an event loop; waits are watches with a deadline.
 */
public final class NameService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NameService.class);
    static final String ROOT = "/canopy/names";
    private static final int ENCRYPTED_KEY_CHARS = NameRecordSeal.encryptedChars(JobSecret.BYTES);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern SERVICE = Pattern.compile("[A-Za-z0-9._:@-]{1,128}");
    private static final List<ACL> SHARED_PARENT_ACL = Collections.singletonList(new ACL(
            ZooDefs.Perms.READ | ZooDefs.Perms.CREATE | ZooDefs.Perms.DELETE, ZooDefs.Ids.ANYONE_ID_UNSAFE));
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(4);
    /** Longest wait between two looks when no watch fires (a watch lost with a connection). */
    private static final long RECHECK_MILLIS = 500;
    private static final String REPLY = ".reply";

    private final Vertx vertx;
    private final ZooKeeperSession session;
    private final CuratorFramework client;
    private final NameRecordSeal seal;
    private final DynamicOptions options;
    private final String namespacePath;
    /** Whether this service opened its session (and ends it at close) or borrowed a job's. */
    private final boolean ownsSession;
    /** Over a borrowed session: the ports and names this service made, deleted at close. */
    private final Set<String> made = ConcurrentHashMap.newKeySet();

    private NameService(Vertx vertx, ZooKeeperSession session, DynamicOptions options, boolean ownsSession) {
        this.vertx = vertx;
        this.session = session;
        this.ownsSession = ownsSession;
        this.client = session.client();
        this.seal = new NameRecordSeal(options.secret());
        this.options = options;
        this.namespacePath = ROOT + "/" + options.namespace();
    }

    /** Connects to {@code options.zooKeeper()} with the secret's credentials and claims the namespace. */
    public static Future<NameService> open(Vertx vertx, DynamicOptions options) {
        return ZooKeeperSession.open(vertx, options.zooKeeper(), SESSION_TIMEOUT, CONNECT_TIMEOUT,
                        Optional.of(ZooKeeperCredentials.of(options.secret())), options.zooKeeperTls())
                .compose(session -> {
                    NameService service = new NameService(vertx, session, options, true);
                    return service.claim().map(service).onFailure(e -> session.close());
                });
    }

    /**
     * Over {@code borrowed}, a session this process already has (a job's), instead of a session of its own: no
     * connect to ZooKeeper, which is what a spawned child's way back to its parents must not wait for. The
     * session must carry the secret's credentials. {@link #close()} then deletes the ports and names this
     * service made and leaves the session open.
     */
    public static Future<NameService> over(Vertx vertx, ZooKeeperSession borrowed, DynamicOptions options) {
        if (!borrowed.credentials().equals(Optional.of(ZooKeeperCredentials.of(options.secret())))) {
            return Future.failedFuture(new IllegalArgumentException("the ZooKeeper session of " + borrowed.connectString()
                    + " given to the name service carries other credentials than the secret of its DynamicOptions;"
                    + " give the session of a job with the same secret, or let the name service open its own"));
        }
        NameService service = new NameService(vertx, borrowed, options, false);
        return service.claim().map(service);
    }

    public String namespace() {
        return options.namespace();
    }

    /**
     * A new port, open until {@link #closePort} or until this service closes (or its process dies). Its znode holds
     * the port's key, 32 random bytes encrypted and sealed with the secret, which only holders of the secret can
     * read: the credential of every inter-communicator made through the port ({@link #portKey}).
     */
    public Future<PortName> openPort() {
        PortName port = PortName.random(options.namespace());
        String path = portPath(port);
        byte[] key = new byte[JobSecret.BYTES];
        RANDOM.nextBytes(key);
        return blocking(() -> {
            client.create().withMode(CreateMode.EPHEMERAL).forPath(path, seal.seal(path, new JsonObject()
                    .put("port", port.id()).put("key", seal.encrypt(path, key))));
            made.add(path);
            return port;
        }, "open a port");
    }

    /**
     * The key of open {@code port}: what the handshake of its inter-communicators' connections proves. Fails when
     * the port is not open, and with a {@link MalformedZnodeException} when its znode is not sealed with the secret
     * or holds no 32-byte key encrypted with it for this port.
     */
    Future<byte[]> portKey(PortName port) {
        return valid(() -> requireOwnNamespace(port)).compose(v -> blocking(() -> {
            String path = portPath(port);
            byte[] data;
            try {
                data = client.getData().forPath(path);
            } catch (KeeperException.NoNodeException e) {
                throw new IllegalStateException(notOpen(port), e);
            }
            ZnodeJson record = seal.open(path, data);
            if (!port.id().equals(record.name("port"))) {
                throw new MalformedZnodeException(path, "names another port, " + record.name("port"));
            }
            byte[] key = seal.decrypt(path, record.text("key", ENCRYPTED_KEY_CHARS));
            if (key.length != JobSecret.BYTES) {
                throw new MalformedZnodeException(path, "holds a port key of " + key.length + " bytes, not " + JobSecret.BYTES);
            }
            return key;
        }, "read the key of port " + port));
    }

    /** Closes {@code port}: connects to it fail from now on, and so does an accept waiting on it. */
    public Future<Void> closePort(PortName port) {
        return valid(() -> requireOwnNamespace(port)).compose(v -> blocking(() -> {
            try {
                client.delete().forPath(portPath(port));
                made.remove(portPath(port));
            } catch (KeeperException.NoNodeException e) {
                throw new IllegalStateException("port " + port + " is not open (closed already, or never opened)", e);
            }
            return null;
        }, "close port " + port));
    }

    /** Publishes {@code port} as {@code service} in this namespace until {@link #unpublishName} or this service closes. */
    public Future<Void> publishName(String service, PortName port) {
        return valid(() -> {
            requireService(service);
            requireOwnNamespace(port);
        }).compose(v -> blocking(() -> {
            String path = servicePath(service);
            try {
                client.create().withMode(CreateMode.EPHEMERAL).forPath(path,
                        seal.seal(path, new JsonObject().put("service", service).put("port", port.toString())));
                made.add(path);
            } catch (KeeperException.NodeExistsException e) {
                throw new IllegalStateException("service '" + service + "' is already published in namespace "
                        + options.namespace() + "; unpublish it first, or choose another name", e);
            }
            return null;
        }, "publish service '" + service + "'"));
    }

    /** The port published as {@code service}; fails naming the service and namespace when none is. */
    public Future<PortName> lookupName(String service) {
        return valid(() -> requireService(service)).compose(v -> blocking(() -> {
            String path = servicePath(service);
            byte[] data;
            try {
                data = client.getData().forPath(path);
            } catch (KeeperException.NoNodeException e) {
                throw new IllegalStateException("no service named '" + service + "' is published in namespace "
                        + options.namespace() + " of ZooKeeper " + options.zooKeeper() + " (is the server job running"
                        + " and did it publishName? are both jobs given the same namespace?)", e);
            }
            ZnodeJson record = seal.open(path, data);
            if (!service.equals(record.name("service"))) {
                throw new MalformedZnodeException(path, "names another service, " + record.name("service"));
            }
            try {
                return PortName.parse(record.text("port", 200));
            } catch (IllegalArgumentException e) {
                throw new MalformedZnodeException(path, "holds a bad port: " + e.getMessage());
            }
        }, "look up service '" + service + "'"));
    }

    /** Withdraws {@code service}; fails when it is not published. */
    public Future<Void> unpublishName(String service) {
        return valid(() -> requireService(service)).compose(v -> blocking(() -> {
            try {
                client.delete().forPath(servicePath(service));
                made.remove(servicePath(service));
            } catch (KeeperException.NoNodeException e) {
                throw new IllegalStateException("service '" + service + "' is not published in namespace "
                        + options.namespace(), e);
            }
            return null;
        }, "unpublish service '" + service + "'"));
    }

    /**
     * Closes the ZooKeeper session: this process's ports and published names go with it. Over a borrowed session,
     * deletes them and leaves the session open.
     */
    @Override
    public void close() {
        closeAsync();
    }

    /** {@link #close()} as a future. */
    public Future<Void> closeAsync() {
        if (ownsSession) {
            return session.close();
        }
        List<String> paths = List.copyOf(made);
        made.clear();
        return vertx.executeBlocking(() -> {
            for (String path : paths) {
                client.delete().quietly().forPath(path);
            }
            return null;
        });
    }

    /**
     * The connecting root's side of a pairing's first step: leaves a request at the port holding its fresh public key
     * ({@link EphemeralKey}) and waits for the accepting root's. Fails when the port is not open, closes meanwhile,
     * or nobody accepts within {@code patience}; a request that failed is withdrawn.
     */
    Future<Rendezvous> offer(PortName port, byte[] publicKey, Duration patience) {
        String portPath = portPath(port);
        Future<String> requested = valid(() -> requireOwnNamespace(port)).compose(v -> blocking(() -> {
            if (client.checkExists().forPath(portPath) == null) {
                throw new IllegalStateException(notOpen(port));
            }
            String prefix = pairingsPath() + "/" + port.id() + "-c";
            // Sealed for the final path, which ZooKeeper's sequence number only fixes at create: create, then seal.
            String path = client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(prefix, new byte[0]);
            client.setData().forPath(path, seal.seal(path, keyRecord(publicKey)));
            return path;
        }, "ask port " + port + " to accept"));
        return requested.compose(request -> {
            String replyPath = request + REPLY;
            Future<byte[]> answered = waitFor(System.nanoTime() + patience.toNanos(), wake -> {
                if (client.checkExists().usingWatcher(wake).forPath(replyPath) != null) {
                    return Optional.of(publicKey(replyPath, client.getData().forPath(replyPath)));
                }
                if (client.checkExists().usingWatcher(wake).forPath(portPath) == null) {
                    throw new IllegalStateException(notOpen(port) + ", or it closed while this connect waited");
                }
                return Optional.empty();
            }, () -> "nobody accepted on port " + port + " within " + patience.toMillis()
                    + " ms (DynamicOptions.timeout); is the server calling accept?");
            Rendezvous meeting = new Rendezvous(port, request, Side.CONNECT);
            return answered.map(theirs -> meeting.withTheirKey(theirs))
                    .onFailure(e -> withdraw(meeting));
        });
    }

    /**
     * The accepting root's side of the first step: takes the oldest connect request waiting at {@code port} (claimed
     * by creating its reply, so two accepts never take one request) and answers it with its own fresh public key.
     * Fails when the port is not open, closes meanwhile, or no request comes within {@code patience}.
     */
    Future<Rendezvous> answer(PortName port, byte[] publicKey, Duration patience) {
        String portPath = portPath(port);
        Pattern requestName = Pattern.compile(Pattern.quote(port.id()) + "-c[0-9]{10}");
        return valid(() -> requireOwnNamespace(port)).compose(v -> waitFor(System.nanoTime() + patience.toNanos(), wake -> {
            if (client.checkExists().forPath(portPath) == null) {
                throw new IllegalStateException(notOpen(port) + " (open it with openPort before accept; it closed"
                        + " if accept was waiting)");
            }
            List<String> children = client.getChildren().usingWatcher(wake).forPath(pairingsPath());
            for (String child : children.stream().filter(c -> requestName.matcher(c).matches()).sorted().toList()) {
                if (children.contains(child + REPLY)) {
                    continue;
                }
                String request = pairingsPath() + "/" + child;
                Optional<byte[]> theirs = readRequest(request, wake);
                if (theirs.isEmpty()) {
                    continue;
                }
                String reply = request + REPLY;
                try {
                    client.create().withMode(CreateMode.EPHEMERAL).forPath(reply, seal.seal(reply, keyRecord(publicKey)));
                    return Optional.of(new Rendezvous(port, request, Side.ACCEPT).withTheirKey(theirs.get()));
                } catch (KeeperException.NodeExistsException taken) {
                    // another accept on this port took it first
                }
            }
            return Optional.empty();
        }, () -> "no connect arrived at port " + port + " within " + patience.toMillis()
                + " ms (DynamicOptions.timeout)"));
    }

    /**
     * The second step: leaves this group's record for the other root, sealed with the pairing's own key (so only the
     * two roots that agreed it can make or check it), and returns the other's. Each root deletes the other's record
     * once read, and its own end of the pairing (the request, the reply) once done: nothing of a finished pairing
     * stays. Fails when the other root withdraws (its session ends) or the timeout passes.
     */
    Future<GroupRecord> exchange(Rendezvous meeting, GroupRecord mine, NameRecordSeal pairing) {
        String own = meeting.record(meeting.side());
        String theirs = meeting.record(meeting.side().other());
        String theirEnd = meeting.end(meeting.side().other());
        Future<GroupRecord> exchanged = blocking(() -> {
            client.create().withMode(CreateMode.EPHEMERAL).forPath(own, pairing.seal(own, mine.toJson()));
            return null;
        }, "leave this group's record at port " + meeting.port()).compose(v -> waitFor(deadline(), wake -> {
            boolean there = client.checkExists().usingWatcher(wake).forPath(theirs) != null;
            if (!there && client.checkExists().usingWatcher(wake).forPath(theirEnd) == null) {
                // Between the two looks the other root may have left its record, read this one's and deleted its end
                // (its way out on success; a withdrawal deletes the record first, then the end): look once more.
                there = client.checkExists().forPath(theirs) != null;
                if (!there) {
                    throw new IllegalStateException("the other group's root withdrew from the pairing at port "
                            + meeting.port() + " before sending its record (its process ended, or its accept/connect failed)");
                }
            }
            return there ? Optional.of(GroupRecord.fromJson(pairing.open(theirs, client.getData().forPath(theirs))))
                    : Optional.empty();
        }, () -> "the other group's root sent no record at port " + meeting.port() + " within "
                + options.timeout().toMillis() + " ms (DynamicOptions.timeout)"));
        // Their record and this root's end go once read, off the way to the inter-communicator (a ZooKeeper round trip).
        return exchanged.onSuccess(record -> deleteQuietly(theirs).onComplete(deleted -> deleteQuietly(meeting.end(meeting.side()))))
                .onFailure(e -> withdraw(meeting));
    }

    /** Deletes this root's znodes of {@code meeting}: the other root then fails at once instead of waiting. */
    void withdraw(Rendezvous meeting) {
        deleteQuietly(meeting.record(meeting.side())).compose(v -> deleteQuietly(meeting.end(meeting.side())));
    }

    private static JsonObject keyRecord(byte[] publicKey) {
        return new JsonObject().put("key", HexFormat.of().formatHex(publicKey));
    }

    private byte[] publicKey(String path, byte[] data) {
        ZnodeJson record = seal.open(path, data);
        return HexFormat.of().parseHex(record.text("key", 2 * EphemeralKey.PUBLIC_KEY_BYTES));
    }

    /** A request's public key; empty while it is not sealed yet ({@code wake} fires when it is) or gone. */
    private Optional<byte[]> readRequest(String request, CuratorWatcher wake) throws Exception {
        byte[] data;
        try {
            data = client.getData().usingWatcher(wake).forPath(request);
        } catch (KeeperException.NoNodeException gone) {
            return Optional.empty();
        }
        if (data.length == 0) {
            return Optional.empty(); // created, not sealed yet: its data watch wakes the next look
        }
        try {
            return Optional.of(publicKey(request, data));
        } catch (IllegalArgumentException e) { // a MalformedZnodeException, or a key that is not hex
            LOG.warn("ignores a connect request: {}", e.getMessage());
            deleteNow(request);
            return Optional.empty();
        }
    }

    private Future<Void> claim() {
        return blocking(() -> {
            try {
                // Made last, so the namespace is complete; NoAuth when another secret owns it. One read instead of
                // the nine operations below, for every process but the namespace's first (a spawned child's root).
                client.getChildren().forPath(pairingsPath());
                return null;
            } catch (KeeperException.NoNodeException missing) {
                // not made yet: make it
            }
            if (client.checkExists().forPath(ROOT) == null) {
                try {
                    client.create().creatingParentsIfNeeded().withACL(SHARED_PARENT_ACL).forPath(ROOT);
                } catch (KeeperException.NodeExistsException raced) {
                    // made by another process meanwhile
                }
            }
            for (String path : List.of(namespacePath, namespacePath + "/ports", namespacePath + "/services", pairingsPath())) {
                try {
                    client.create().forPath(path);
                } catch (KeeperException.NodeExistsException exists) {
                    client.getChildren().forPath(path); // NoAuth when another secret owns it
                }
            }
            return null;
        }, "use namespace " + options.namespace());
    }

    /** {@code check}'s refusal of bad input as a failed future. */
    private static Future<Void> valid(Runnable check) {
        try {
            check.run();
            return Future.succeededFuture();
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(e);
        }
    }

    private <T> Future<T> blocking(Callable<T> action, String what) {
        return vertx.<T>executeBlocking(action).recover(e -> Future.failedFuture(explain(e, what)));
    }

    /** Runs {@code attempt} until it gives a value, again whenever its watch fires (or after a while), until the deadline. */
    private <T> Future<T> waitFor(long deadline, Attempt<T> attempt, Supplier<String> timedOut) {
        Promise<T> result = Promise.promise();
        look(deadline, attempt, timedOut, result);
        return result.future();
    }

    private <T> void look(long deadline, Attempt<T> attempt, Supplier<String> timedOut, Promise<T> result) {
        Promise<Void> woken = Promise.promise();
        CuratorWatcher wake = event -> woken.tryComplete();
        vertx.executeBlocking(() -> attempt.look(wake)).onComplete(looked -> {
            if (looked.failed()) {
                result.fail(explain(looked.cause(), "use the port"));
            } else if (looked.result().isPresent()) {
                result.complete(looked.result().get());
            } else {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    result.fail(new DynamicTimeoutException(timedOut.get()));
                    return;
                }
                long timer = vertx.setTimer(Math.max(1, Math.min(RECHECK_MILLIS, left / 1_000_000)), id -> woken.tryComplete());
                woken.future().onComplete(w -> {
                    vertx.cancelTimer(timer);
                    look(deadline, attempt, timedOut, result);
                });
            }
        });
    }

    private Future<Void> deleteQuietly(String path) {
        return vertx.<Void>executeBlocking(() -> {
            deleteNow(path);
            return null;
        }).otherwiseEmpty();
    }

    private void deleteNow(String path) throws Exception {
        try {
            client.delete().forPath(path);
        } catch (KeeperException.NoNodeException gone) {
            // already deleted
        }
    }

    private Throwable explain(Throwable e, String what) {
        if (e instanceof KeeperException.NoAuthException) {
            return new IllegalStateException("cannot " + what + ": namespace " + options.namespace()
                    + " of the name service belongs to other ZooKeeper credentials (a job with another name-service"
                    + " secret made it); give every job that connects through it the same name-service secret"
                    + " (CANOPY_NAMES_SECRET_FILE, or else the same --secret-file), or use another namespace"
                    + " (DynamicOptions.withNamespace, CANOPY_NAMESPACE)", e);
        }
        if (e instanceof KeeperException keeper) {
            return new IllegalStateException("cannot " + what + ": ZooKeeper at " + options.zooKeeper() + " answered "
                    + keeper.code() + " for " + keeper.getPath(), e);
        }
        return e;
    }

    private long deadline() {
        return System.nanoTime() + options.timeout().toNanos();
    }

    private String notOpen(PortName port) {
        return "port " + port + " is not open (never opened, closed, or its server's process ended)";
    }

    private void requireOwnNamespace(PortName port) {
        if (!port.namespace().equals(options.namespace())) {
            throw new IllegalArgumentException("port " + port + " is in namespace " + port.namespace()
                    + ", this name service in " + options.namespace() + "; use DynamicOptions.withNamespace("
                    + port.namespace() + ")");
        }
    }

    private static void requireService(String service) {
        if (service == null || !SERVICE.matcher(service).matches()) {
            throw new IllegalArgumentException("service name '" + service + "' must be 1 to 128 characters of letters,"
                    + " digits and . _ : @ -");
        }
    }

    private String portPath(PortName port) {
        return namespacePath + "/ports/" + port.id();
    }

    private String servicePath(String service) {
        return namespacePath + "/services/" + service;
    }

    private String pairingsPath() {
        return namespacePath + "/pairings";
    }

    /** One look at ZooKeeper: a value, or empty after registering {@code wake} on what may change. */
    @FunctionalInterface
    private interface Attempt<T> {
        Optional<T> look(CuratorWatcher wake) throws Exception;
    }

    /**
     * One pairing's znodes, named after the connect request: {@code <request>} (the connecting root's end),
     * {@code <request>.reply} (the accepting root's), {@code <request>.accept} / {@code .connect} (each group's
     * record); {@code theirKey} is the other root's public key.
     */
    record Rendezvous(PortName port, String request, Side side, byte[] theirKey) {

        Rendezvous(PortName port, String request, Side side) {
            this(port, request, side, new byte[0]);
        }

        Rendezvous withTheirKey(byte[] key) {
            return new Rendezvous(port, request, side, key);
        }

        String end(Side of) {
            return of == Side.CONNECT ? request : request + REPLY;
        }

        String record(Side of) {
            return request + "." + of.name().toLowerCase(Locale.ROOT);
        }
    }
}
