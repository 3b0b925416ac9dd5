package dev.canopy.core.comm;

import dev.canopy.core.node.Member;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Names a communicator's agreements in ZooKeeper so that no two communicators of a job share one.
 * A context id alone does not do: disjoint communicators (the sites of {@code splitByLevel}) get the
 * same id, and {@code free()} makes ids reusable. The key is the context id, a digest of the member
 * list and an incarnation: how many communicators with that id and those members this node has had
 * before. Every such communicator had all of these members, so every member counts the same number.
 * One instance per node; used on the runtime's context only.
 */
final class AgreementKeys {

    private static final int DIGEST_HEX_CHARACTERS = 16;

    private final Map<String, Integer> incarnations = new HashMap<>();

    /** The key of a new communicator with {@code contextId} and {@code members} (by rank). */
    String next(int contextId, List<Member> members) {
        String prefix = contextId + "-" + digest(members);
        int incarnation = incarnations.merge(prefix, 1, Integer::sum) - 1;
        return prefix + "-" + incarnation;
    }

    private static String digest(List<Member> members) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            for (Member member : members) {
                sha256.update(member.id().value().getBytes(StandardCharsets.UTF_8));
                sha256.update((byte) 0);
            }
            return HexFormat.of().formatHex(sha256.digest()).substring(0, DIGEST_HEX_CHARACTERS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
