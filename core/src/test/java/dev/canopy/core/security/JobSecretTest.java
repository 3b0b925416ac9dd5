package dev.canopy.core.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobSecretTest {

    @TempDir
    Path directory;

    @Test
    void aWrittenSecretReadsBackFromAPrivateFile() throws Exception {
        JobSecret secret = JobSecret.generate();
        Path file = directory.resolve("job.key");
        secret.writeTo(file);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file).strip()).hasSize(64).matches("[0-9a-f]{64}");
        assertThat(JobSecret.fromFile(file).derive("label")).isEqualTo(secret.derive("label"));
    }

    @Test
    void aTemporarySecretFileIsPrivate() throws Exception {
        Path file = JobSecret.generate().writeTemporary();
        try {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            JobSecret.fromFile(file);
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void aFileOthersMayReadIsRefusedNamingChmod() throws Exception {
        Path file = hexFile("open.key", "ab".repeat(32), "rw-r-----");
        assertThatThrownBy(() -> JobSecret.fromFile(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("may be read or changed by others (mode rw-r-----)")
                .hasMessageContaining("chmod 600 " + file);
    }

    @Test
    void wrongSizesAndContentAreRefused() throws Exception {
        assertThatThrownBy(() -> JobSecret.fromFile(hexFile("short.key", "ab".repeat(16), "rw-------")))
                .hasMessageContaining("holds 32 characters; a job secret is exactly 64 hex digits");
        assertThatThrownBy(() -> JobSecret.fromFile(hexFile("text.key", "zz".repeat(32), "rw-------")))
                .hasMessageContaining("is not 64 hex digits");
        Path huge = directory.resolve("huge.key");
        Files.write(huge, new byte[1 << 20]);
        Files.setPosixFilePermissions(huge, PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> JobSecret.fromFile(huge)).hasMessageContaining("more than 256 bytes");
        assertThatThrownBy(() -> JobSecret.fromFile(directory)).hasMessageContaining("is not a regular file");
        assertThatThrownBy(() -> JobSecret.fromFile(directory.resolve("missing.key")))
                .hasMessageContaining("does not exist").hasMessageContaining("openssl rand -hex 32");
        assertThatThrownBy(() -> JobSecret.of(new byte[31])).hasMessageContaining("32 bytes, got 31");
    }

    @Test
    void aTrailingNewlineAsOpensslWritesItIsAccepted() throws Exception {
        byte[] key = new byte[32];
        key[0] = 1;
        Path file = hexFile("openssl.key", "01" + "00".repeat(31) + "\n", "rw-------");
        assertThat(JobSecret.fromFile(file).derive("x")).isEqualTo(JobSecret.of(key).derive("x"));
    }

    @Test
    void derivedKeysDifferByLabelAndBySecretAndNeverShowTheSecret() {
        JobSecret secret = JobSecret.generate();
        assertThat(secret.derive("a")).hasSize(32).isEqualTo(secret.derive("a")).isNotEqualTo(secret.derive("b"));
        assertThat(JobSecret.generate().derive("a")).isNotEqualTo(secret.derive("a"));
        assertThat(secret.toString()).isEqualTo("JobSecret[redacted]");
    }

    private Path hexFile(String name, String content, String mode) throws Exception {
        Path file = directory.resolve(name);
        Files.writeString(file, content, StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }
}
