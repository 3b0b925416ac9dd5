package dev.canopy.core.security.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One PEM file read whole (at most {@value #MAX_BYTES} bytes) and cut into its blocks
 * ({@code -----BEGIN TYPE----- base64 -----END TYPE-----}); text between blocks (OpenSSL's "Bag
 * Attributes" and the like) is ignored. Every problem is a {@link TlsFileException} naming the file,
 * its role ("certificate", "private key", "CA") and the fix.
 */
final class PemFile {

    /** Far more than any chain of certificates; a bound on what a wrong path (a log file, /dev/zero) can make us read. */
    static final int MAX_BYTES = 1024 * 1024;
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]{1,64})-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");

    /** One block: its type ({@code CERTIFICATE}, {@code PRIVATE KEY}, ...) and its decoded bytes. */
    record Block(String type, byte[] der) {
    }

    private final Path path;
    private final String role;
    private final byte[] content;
    private final List<Block> blocks;

    private PemFile(Path path, String role, byte[] content, List<Block> blocks) {
        this.path = path;
        this.role = role;
        this.content = content;
        this.blocks = blocks;
    }

    /**
     * Reads {@code path}, which holds the node's {@code role} (for messages), and cuts it into blocks.
     *
     * @throws TlsFileException when the file is missing, not a regular file, unreadable, too big or holds no PEM block
     */
    static PemFile read(Path path, String role, String option) {
        if (!Files.exists(path)) {
            throw new TlsFileException(path, role, "does not exist; give the " + role + " file with " + option
                    + " (canopy keys --out DIR writes a job CA and node certificates)");
        }
        if (!Files.isRegularFile(path)) {
            throw new TlsFileException(path, role, "is not a regular file; give a PEM file with " + option);
        }
        byte[] content;
        try (InputStream in = Files.newInputStream(path)) {
            content = in.readNBytes(MAX_BYTES + 1);
        } catch (IOException e) {
            throw new TlsFileException(path, role, "cannot be read (" + e + "); check its permissions");
        }
        if (content.length > MAX_BYTES) {
            throw new TlsFileException(path, role, "is larger than " + MAX_BYTES + " bytes; is it really a PEM file?");
        }
        List<Block> blocks = new ArrayList<>();
        Matcher matcher = BLOCK.matcher(new String(content, StandardCharsets.US_ASCII));
        while (matcher.find()) {
            try {
                blocks.add(new Block(matcher.group(1), Base64.getMimeDecoder().decode(matcher.group(2))));
            } catch (IllegalArgumentException e) {
                throw new TlsFileException(path, role, "has a " + matcher.group(1) + " block that is not valid base64 ("
                        + e.getMessage() + ")");
            }
        }
        if (blocks.isEmpty()) {
            throw new TlsFileException(path, role, "holds no PEM block (-----BEGIN ...-----); give a PEM file with "
                    + option + " (DER files convert with `openssl x509 -inform der -in FILE -out FILE.pem`)");
        }
        return new PemFile(path, role, content, blocks);
    }

    Path path() {
        return path;
    }

    String role() {
        return role;
    }

    /** The file as read, handed to the TLS engine (so it uses exactly what was checked). */
    byte[] content() {
        return content.clone();
    }

    List<Block> blocks() {
        return blocks;
    }

    /** A problem with this file. */
    TlsFileException problem(String what) {
        return new TlsFileException(path, role, what);
    }
}
