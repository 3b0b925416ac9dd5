package dev.canopy.collectives.internal.calibration;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A calibration document of one kind kept sealed with a grid's configuration in ZooKeeper
 * ({@link SealedConfigZnode}: {@code /canopy/config/<grid name>/<name>}, owned by the secret's ZooKeeper
 * credentials, HMAC over path and body under a key of the kind's own), for the deployment that holds one secret:
 * {@code canopy calibrate --secret-file F} writes it, jobs run with the same secret file use what it decodes to.
 *
 * <p>A document is stored only when it decodes ({@link #save}), so what a holder of the secret stores can be used.
 * A reader uses only what this secret sealed: anything else there (another secret's calibration, an old unsealed
 * one, a forgery) is ignored with a warning that says what the job uses instead. A sealed body that does not
 * decode (which only a holder of the secret could write) fails with a {@link MalformedZnodeException}.
 *
 * @param <T> what a document holds, e.g. the segmentation thresholds
 */
public abstract class SealedDocumentStore<T> {

    /** Reads a stored document; fails with a {@link MalformedZnodeException} naming {@code path} when it is bad. */
    @FunctionalInterface
    interface Decoder<T> {
        T decode(byte[] document, String path);
    }

    /**
     * One kind of document.
     *
     * @param name its znode under the grid's configuration, e.g. {@code segmentation}
     * @param macLabel the key derivation label of its MAC, so that one kind's MAC never fits another
     * @param decoder reads what a document holds
     * @param what what it holds, for the warning about an untrusted one (e.g. "the LogGP parameters")
     * @param instead what is used instead, for that warning (e.g. "plans use the defaults")
     */
    record Kind<T>(String name, String macLabel, Decoder<T> decoder, String what, String instead) {
    }

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final Kind<T> kind;
    private final SealedConfigZnode znode;

    /** @param client a client with the secret's ZooKeeper credentials */
    SealedDocumentStore(Vertx vertx, CuratorFramework client, JobSecret secret, Kind<T> kind) {
        this.kind = kind;
        this.znode = new SealedConfigZnode(vertx, client, secret, kind.name(), kind.macLabel());
    }

    /**
     * Stores {@code document}, sealed, replacing any earlier one; fails with a {@link MalformedZnodeException}
     * without writing when it does not decode, and naming the fix when the grid's document belongs to other
     * credentials.
     */
    public Future<Void> save(String gridName, JsonObject document) {
        String body = document.encode();
        try {
            kind.decoder().decode(body.getBytes(StandardCharsets.UTF_8), znode.path(gridName));
        } catch (MalformedZnodeException e) {
            return Future.failedFuture(e);
        }
        return znode.save(gridName, body);
    }

    /**
     * What the document stored for {@code gridName} holds; empty when none was stored, or when what is there was
     * not sealed with this store's secret (logged as a warning).
     */
    public Future<Optional<T>> load(String gridName) {
        String path = znode.path(gridName);
        return znode.load(gridName).map(read -> {
            if (read instanceof SealedConfigZnode.Read.Sealed sealed) {
                return Optional.of(kind.decoder().decode(sealed.body().getBytes(StandardCharsets.UTF_8), path));
            }
            if (read instanceof SealedConfigZnode.Read.Foreign foreign) {
                log.warn("ignores {} at {}: {}; {} (run canopy calibrate and the job with the same --secret-file)",
                        kind.what(), path, foreign.why(), kind.instead());
            }
            return Optional.empty();
        });
    }

    /** The znode content for {@code body} at {@code path}: the body and its MAC. */
    byte[] seal(String path, String body) {
        return znode.seal(path, body);
    }

    /** The body of sealed content, when its MAC is right under this store's key; empty when it is not. */
    Optional<String> open(String path, byte[] stored) {
        return znode.open(path, stored);
    }
}
