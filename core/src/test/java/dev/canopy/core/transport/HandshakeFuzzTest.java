package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded random and mutated handshake messages and datagrams: every one is decoded or refused with a
 * reason, never an exception of another kind; a mutated datagram never passes the MAC.
 */
class HandshakeFuzzTest {

    private static final long SEED = 1011L;
    private static final int INPUTS = 100_000;

    @Test
    void handshakeDecodersRefuseWhatTheyCannotReadWithAReason() {
        Random random = new Random(SEED);
        PeerIdentity identity = PeerIdentity.of(new NodeAddress("127.0.0.1", 4000, 4001), "site/host");
        List<Buffer> valid = List.of(
                Hello.clientHello(7, new byte[Hello.NONCE_BYTES], identity).payload(),
                Hello.serverHello(7, new byte[Hello.NONCE_BYTES], new byte[Hello.PROOF_BYTES], identity).payload(),
                Hello.clientProof(7, new byte[Hello.PROOF_BYTES]).payload(),
                Hello.serverAccept(7).payload());
        int decoded = 0;
        for (int i = 0; i < INPUTS; i++) {
            Buffer payload = i % 2 == 0 ? mutate(valid.get(i / 2 % valid.size()), random) : randomBytes(random);
            Hello.Kind kind = Hello.Kind.values()[random.nextInt(Hello.Kind.values().length)];
            try {
                Hello.decode(new Frame(FrameType.HELLO, 7, 0, 0, -1, -1, 0, 0, payload), kind);
                decoded++;
            } catch (Hello.Refused refused) {
                assertThat(refused.rejection).isNotNull();
            } catch (RuntimeException e) {
                throw new AssertionError("input " + i + " (seed " + SEED + "): " + payload, e);
            }
        }
        assertThat(decoded).as("some mutations stay valid messages").isPositive();
    }

    @Test
    void aMutatedDatagramNeverPassesTheSeal() {
        Random random = new Random(SEED);
        TransportSecurity security = TransportSecurity.of(JobSecret.generate(), JobId.of("fuzz"));
        DatagramSeal sender = new DatagramSeal(security, new NodeAddress("127.0.0.1", 4000, 4001));
        DatagramSeal receiver = new DatagramSeal(security, new NodeAddress("127.0.0.1", 5000, 5001));
        for (int i = 0; i < INPUTS; i++) {
            Buffer sealed = sender.seal(randomBytes(random));
            Buffer input = i % 2 == 0 ? mutate(sealed, random) : randomBytes(random);
            DatagramSeal.Opened opened;
            try {
                opened = receiver.open(input);
            } catch (RuntimeException e) {
                throw new AssertionError("input " + i + " (seed " + SEED + ")", e);
            }
            if (!input.equals(sealed)) {
                assertThat(opened).as("input %d (seed %d)", i, SEED).isInstanceOf(DatagramSeal.Refused.class);
            }
        }
    }

    private static Buffer mutate(Buffer original, Random random) {
        Buffer copy = original.copy();
        switch (random.nextInt(3)) {
            case 0 -> {
                int at = random.nextInt(copy.length());
                copy.setByte(at, (byte) (copy.getByte(at) ^ (1 + random.nextInt(255))));
            }
            case 1 -> copy = copy.getBuffer(0, random.nextInt(copy.length()));
            default -> copy.appendBytes(new byte[1 + random.nextInt(8)]);
        }
        return copy;
    }

    private static Buffer randomBytes(Random random) {
        byte[] bytes = new byte[random.nextInt(120)];
        random.nextBytes(bytes);
        return Buffer.buffer(bytes);
    }
}
