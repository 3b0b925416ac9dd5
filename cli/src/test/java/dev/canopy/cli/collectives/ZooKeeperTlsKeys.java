package dev.canopy.cli.collectives;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code --zk-tls} directory for tests, PKCS#12 made with the JDK's keytool: a self-signed server certificate for
 * the given addresses (which is also the trusted certificate, {@code ca.p12}) and the password file; no client key
 * (the embedded ZooKeeper asks for none). So the cli tests need no certificate code of their own; core's cover PEM.
 */
public final class ZooKeeperTlsKeys {

    public static final String PASSWORD = "canopy-test-password";

    private ZooKeeperTlsKeys() {
    }

    /** Makes {@code directory} with a server certificate valid for {@code subjectAlternativeNames} (keytool's san=). */
    public static Path create(Path directory, String subjectAlternativeNames) throws Exception {
        Path tls = Files.createDirectory(directory);
        keytool(tls, "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=zookeeper", "-ext", "san=" + subjectAlternativeNames, "-validity", "2", "-keystore", "server.p12");
        keytool(tls, "-exportcert", "-alias", "server", "-keystore", "server.p12", "-file", "server.crt");
        keytool(tls, "-importcert", "-noprompt", "-alias", "server", "-file", "server.crt", "-keystore", "ca.p12");
        Files.writeString(tls.resolve("password"), PASSWORD + "\n");
        for (String secret : List.of("server.p12", "password")) {
            Files.setPosixFilePermissions(tls.resolve(secret), PosixFilePermissions.fromString("rw-------"));
        }
        return tls;
    }

    private static void keytool(Path directory, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(arguments));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("keytool " + String.join(" ", arguments) + " failed: " + output);
        }
    }
}
