package dev.canopy.cli.launch;

import dev.canopy.core.security.tls.ZooKeeperTls;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The client side of a {@code --zk-tls} directory, carried to launched hosts in the {@link LaunchPlan} (standard
 * input, never a command line): the CA certificates, this job's client key and certificate if the directory has
 * them, and the password of {@code .p12} files. Never the server's key ({@code server.pem}/{@code server.p12}): it
 * stays with the launcher's embedded ZooKeeper. A host writes the files into its private directory (mode 600) and
 * checks them as its nodes will ({@link ZooKeeperTls#fromDirectory}).
 */
final class ZooKeeperTlsFiles {

    /** The only names a plan may carry: no path, so nothing is written outside the host's directory. */
    private static final Set<String> CLIENT_FILES = Set.of("ca.pem", "client.pem", "ca.p12", "client.p12", "password");
    /** As {@link ZooKeeperTls} bounds them: certificates and keys are small. */
    private static final int MAX_FILE_BYTES = 1 << 20;

    private final Map<String, byte[]> files;

    private ZooKeeperTlsFiles(Map<String, byte[]> files) {
        this.files = new TreeMap<>(files);
    }

    /** The client files of the checked directory {@code tls}. */
    static ZooKeeperTlsFiles of(ZooKeeperTls tls) {
        String extension = tls.type() == ZooKeeperTls.StoreType.PEM ? ".pem" : ".p12";
        Map<String, byte[]> files = new TreeMap<>();
        for (String name : new String[] {"ca" + extension, "client" + extension, "password"}) {
            Path file = tls.directory().resolve(name);
            if (Files.isRegularFile(file) && (tls.type() == ZooKeeperTls.StoreType.PKCS12 || !name.equals("password"))) {
                try {
                    files.put(name, Files.readAllBytes(file));
                } catch (IOException e) {
                    throw new IllegalArgumentException("--zk-tls: cannot read " + file + ": " + e.getMessage(), e);
                }
            }
        }
        return new ZooKeeperTlsFiles(files);
    }

    /** The file names, for messages and tests. */
    Set<String> names() {
        return files.keySet();
    }

    JsonObject toJson() {
        JsonObject json = new JsonObject();
        files.forEach((name, bytes) -> json.put(name, Base64.getEncoder().encodeToString(bytes)));
        return json;
    }

    /** @throws IllegalArgumentException on a name that is not a client file, or content that is not base64 */
    static ZooKeeperTlsFiles fromJson(JsonObject json) {
        Map<String, byte[]> files = new TreeMap<>();
        for (String name : json.fieldNames()) {
            if (!CLIENT_FILES.contains(name)) {
                throw new IllegalArgumentException("launch plan: \"" + name + "\" is not a ZooKeeper TLS client file ("
                        + String.join(", ", new TreeSet<>(CLIENT_FILES)) + ")");
            }
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(PlanJson.string(json, name));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("launch plan: ZooKeeper TLS file " + name + " is not base64");
            }
            if (bytes.length > MAX_FILE_BYTES) {
                throw new IllegalArgumentException("launch plan: ZooKeeper TLS file " + name + " is over 1 MiB");
            }
            files.put(name, bytes);
        }
        return new ZooKeeperTlsFiles(files);
    }

    /**
     * Writes the files into the new directory {@code directory} (mode 700, files 600) and checks them.
     *
     * @throws IllegalArgumentException naming the file at fault, as {@link ZooKeeperTls#fromDirectory} does
     */
    Path writeTo(Path directory) throws IOException {
        Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path path = Files.createFile(directory.resolve(file.getKey()),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(path, file.getValue());
        }
        ZooKeeperTls.fromDirectory(directory);
        return directory;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ZooKeeperTlsFiles that && files.keySet().equals(that.files.keySet())
                && files.keySet().stream().allMatch(name -> Arrays.equals(files.get(name), that.files.get(name)));
    }

    @Override
    public int hashCode() {
        return files.keySet().hashCode();
    }

    @Override
    public String toString() {
        return "ZooKeeperTlsFiles" + files.keySet();
    }
}
