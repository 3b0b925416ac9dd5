package dev.canopy.core.internal.membership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.security.JobSecret;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ZooKeeperCredentialsTest {

    private static final byte[] PASSWORD = "sixteen bytes at least".getBytes(StandardCharsets.US_ASCII);

    @Test
    void theDigestTextIsUserColonBase64PasswordAndThePasswordNeverPrints() {
        ZooKeeperCredentials credentials = new ZooKeeperCredentials("job-a", PASSWORD);

        assertThat(new String(credentials.digestAuthentication(), StandardCharsets.UTF_8))
                .isEqualTo("job-a:c2l4dGVlbiBieXRlcyBhdCBsZWFzdA==");
        assertThat(credentials.toString()).contains("job-a").doesNotContain("sixteen").doesNotContain("c2l4");
        assertThat(credentials).isEqualTo(new ZooKeeperCredentials("job-a", PASSWORD.clone()));
    }

    @Test
    void aUserWithAColonOrAShortPasswordIsRefusedWithTheFix() {
        assertThatThrownBy(() -> new ZooKeeperCredentials("job:a", PASSWORD)).hasMessageContaining("without ':'");
        assertThatThrownBy(() -> new ZooKeeperCredentials("job-a", new byte[15]))
                .hasMessageContaining("15 bytes; at least 16").hasMessageContaining("job secret");
    }

    @Test
    void changingTheGivenArrayAfterwardsChangesNothing() {
        byte[] given = PASSWORD.clone();
        ZooKeeperCredentials credentials = new ZooKeeperCredentials("job-a", given);
        given[0] = 'X';

        assertThat(credentials).isEqualTo(new ZooKeeperCredentials("job-a", PASSWORD));
    }

    @Test
    void membersOfOneJobDeriveTheSameCredentialsAndOtherJobsOthers() {
        JobSecret secret = JobSecret.generate();

        assertThat(ZooKeeperCredentials.of(secret)).isEqualTo(ZooKeeperCredentials.of(secret))
                .isNotEqualTo(ZooKeeperCredentials.of(JobSecret.generate()));
    }
}
