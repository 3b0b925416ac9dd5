package dev.canopy.core.internal.membership;

import dev.canopy.core.security.JobSecret;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Seals a znode's content under a key derived from the job secret (docs/security.md): the stored bytes are
 * {@code {"body": "<the JSON document>", "mac": "<hex>"}} with the MAC HMAC-SHA-256 over the znode's path and the
 * body, so a body is only ever accepted at the path it was sealed for, and only under the secret that sealed it.
 * The key's label names the kind of document, so one kind's MAC never fits another.
 */
public final class ZnodeSeal {

    private static final int MAC_HEX_CHARS = 64;

    private final byte[] macKey;
    private final int maxBodyChars;

    /** @param maxBodyChars the longest body {@link #open} accepts (ZooKeeper's own limit is 1 MiB) */
    public ZnodeSeal(JobSecret secret, String macLabel, int maxBodyChars) {
        this.macKey = secret.derive(macLabel);
        this.maxBodyChars = maxBodyChars;
    }

    /** The znode content for {@code body} at {@code path}: the body and its MAC. */
    public byte[] seal(String path, String body) {
        return new JsonObject().put("body", body).put("mac", HexFormat.of().formatHex(mac(path, body)))
                .encode().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The body of sealed content, when its MAC is right under this key; empty when it is not. Content that is
     * not a sealed document at all fails with a {@link MalformedZnodeException}.
     */
    public Optional<String> open(String path, byte[] stored) {
        ZnodeJson sealed = ZnodeJson.parse(stored, path);
        String body = sealed.text("body", maxBodyChars);
        String macHex = sealed.text("mac", MAC_HEX_CHARS);
        byte[] given;
        try {
            given = HexFormat.of().parseHex(macHex);
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(path, "has a mac that is not hexadecimal");
        }
        return MessageDigest.isEqual(given, mac(path, body)) ? Optional.of(body) : Optional.empty();
    }

    private byte[] mac(String path, String body) {
        return JobSecret.hmac(macKey, (path + "\n" + body).getBytes(StandardCharsets.UTF_8));
    }
}
