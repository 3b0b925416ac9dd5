package dev.canopy.dynamic;

import dev.canopy.core.membership.MalformedZnodeException;
import dev.canopy.core.membership.ZnodeJson;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * The content of a name-service znode: {@code {"body": "<JSON>", "mac": "<hex>"}}, the MAC HMAC-SHA-256 over
 * the znode's path and the body under a key derived from the secret. A znode is used only when its MAC is
 * right, so what a client without the secret put there (on an ensemble that admits it) is refused, and a sealed
 * record cannot be moved to another path.
 */
final class ZnodeSeal {

    private static final String MAC_LABEL = "canopy/names/v1";
    private static final int MAC_HEX_CHARS = 64;
    /** A record lists a group's members (about 200 bytes each); ZooKeeper's own limit is 1 MiB. */
    static final int MAX_BODY_CHARS = 1 << 20;

    private final byte[] key;

    ZnodeSeal(JobSecret secret) {
        this.key = secret.derive(MAC_LABEL);
    }

    byte[] seal(String path, JsonObject body) {
        String text = body.encode();
        return new JsonObject().put("body", text).put("mac", HexFormat.of().formatHex(mac(path, text)))
                .encode().getBytes(StandardCharsets.UTF_8);
    }

    /** The body of {@code stored} at {@code path}; a {@link MalformedZnodeException} unless it is sealed with this secret. */
    ZnodeJson open(String path, byte[] stored) {
        ZnodeJson sealed = ZnodeJson.parse(stored, path);
        String body = sealed.text("body", MAX_BODY_CHARS);
        byte[] given;
        try {
            given = HexFormat.of().parseHex(sealed.text("mac", MAC_HEX_CHARS));
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(path, "has a mac that is not hexadecimal");
        }
        if (!MessageDigest.isEqual(given, mac(path, body))) {
            throw new MalformedZnodeException(path, "is not sealed with this job's secret (wrong MAC)",
                    "only processes given the same name-service secret (CANOPY_NAMES_SECRET_FILE, or else the same"
                            + " --secret-file) may use one namespace of the name service");
        }
        return ZnodeJson.parse(body.getBytes(StandardCharsets.UTF_8), path);
    }

    private byte[] mac(String path, String body) {
        return JobSecret.hmac(key, (path + "\n" + body).getBytes(StandardCharsets.UTF_8));
    }
}
