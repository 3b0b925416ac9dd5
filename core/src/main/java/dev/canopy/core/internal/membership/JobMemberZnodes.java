package dev.canopy.core.internal.membership;

import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import java.util.List;

/**
 * Read-only access to a job's membership znodes for tools outside the job (the dashboard): where they are
 * and how to decode them. Decoding checks every field like the members do and throws
 * {@link MalformedZnodeException} naming the znode.
 */
public final class JobMemberZnodes {

    private JobMemberZnodes() {
    }

    /** {@code /canopy/jobs/<job>/members}: one ephemeral child per registered member. */
    public static String membersPath(JobId job) {
        return JobZnodes.root(job) + "/members";
    }

    /** {@code /canopy/jobs/<job>/start}: the start record, once the job has started. */
    public static String startPath(JobId job) {
        return JobZnodes.root(job) + "/start";
    }

    /** One member znode's data; {@code where} names it in errors. */
    public static Member decodeMember(byte[] data, String where) {
        return MemberCodec.decode(data, where);
    }

    /** The start record's members, in the order written (sort by {@link Member#RANK_ORDER} for ranks). */
    public static List<Member> decodeStartRecord(byte[] data, String where) {
        return MemberCodec.decodeAll(data, where);
    }
}
