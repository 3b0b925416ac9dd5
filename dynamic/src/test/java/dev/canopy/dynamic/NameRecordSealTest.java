package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.security.JobSecret;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The encryption of what a name-service znode keeps secret (a port's key): bound to the secret and the path. */
class NameRecordSealTest {

    private static final byte[] KEY = HexFormat.of().parseHex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");

    @Test
    void anEncryptedKeyOpensOnlyWithTheSecretAtItsPath() {
        NameRecordSeal seal = new NameRecordSeal(JobSecret.generate());
        String sealed = seal.encrypt("/canopy/names/n/ports/p-1", KEY);
        assertThat(sealed).hasSize(NameRecordSeal.encryptedChars(KEY.length)).doesNotContain(HexFormat.of().formatHex(KEY));
        assertThat(seal.decrypt("/canopy/names/n/ports/p-1", sealed)).isEqualTo(KEY);
        assertThat(seal.encrypt("/canopy/names/n/ports/p-1", KEY)).isNotEqualTo(sealed); // a fresh IV each time

        assertThatThrownBy(() -> seal.decrypt("/canopy/names/n/ports/p-2", sealed)).isInstanceOf(MalformedZnodeException.class)
                .hasMessageContaining("not sealed with this secret for this path");
        assertThatThrownBy(() -> new NameRecordSeal(JobSecret.generate()).decrypt("/canopy/names/n/ports/p-1", sealed))
                .isInstanceOf(MalformedZnodeException.class);
        char flipped = sealed.charAt(40) == '0' ? '1' : '0';
        String tampered = sealed.substring(0, 40) + flipped + sealed.substring(41);
        assertThatThrownBy(() -> seal.decrypt("/canopy/names/n/ports/p-1", tampered)).isInstanceOf(MalformedZnodeException.class);
        assertThatThrownBy(() -> seal.decrypt("/p", "zz")).hasMessageContaining("not hexadecimal");
        assertThatThrownBy(() -> seal.decrypt("/p", "00ff")).hasMessageContaining("too short");
    }
}
