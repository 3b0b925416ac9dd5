package dev.canopy.multicast.internal.groups;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import dev.canopy.core.node.JobId;
import dev.canopy.gridconfig.model.MulticastRange;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import org.apache.zookeeper.data.Stat;

/**
 * The data of a group's record ({@code {"slot": "239.192.0.5:45000"}}) and of a slot's lease
 * ({@code {"job": "launch-42", "group": "c1"}}), and their checks when read back: every value is validated
 * and anything unexpected is a {@link MalformedZnodeException} naming the znode.
 */
final class LeaseCodec {

    private static final int MAX_SLOT_CHARS = 21;

    private LeaseCodec() {
    }

    static byte[] record(Slot slot) {
        return new JsonObject().put("slot", slot.name()).encode().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] lease(JobId job, GroupKey key) {
        return new JsonObject().put("job", job.name()).put("group", key.name()).encode().getBytes(StandardCharsets.UTF_8);
    }

    /** The slot a group's record names; it must be ephemeral, well formed and inside this member's range. */
    static Slot readRecord(String where, byte[] data, Stat stat, MulticastRange range) {
        if (stat.getEphemeralOwner() == 0) {
            throw new MalformedZnodeException(where, "is not ephemeral, so no session holds its group");
        }
        String name = ZnodeJson.parse(data, where).text("slot", MAX_SLOT_CHARS);
        Slot slot = Slot.parse(name).orElseThrow(() -> new MalformedZnodeException(where, "field \"slot\" is "
                + MalformedZnodeException.quote(name) + ", not ADDRESS:PORT with an address in 239.0.0.0/8"));
        if (range.indexOf(slot.address(), slot.port()) < 0) {
            throw new MalformedZnodeException(where, "names slot " + slot + ", outside this member's multicast range "
                    + range, "give every member of the job the same " + MulticastRange.RANGE_ATTRIBUTE + " and "
                    + MulticastRange.PORTS_ATTRIBUTE);
        }
        return slot;
    }

    /** Checks that a slot's lease is this job's lease of {@code key}. */
    static void checkLease(String where, byte[] data, JobId job, GroupKey key) {
        ZnodeJson lease = ZnodeJson.parse(data, where);
        String holder = lease.name("job");
        String group = lease.name("group");
        if (!holder.equals(job.name()) || !group.equals(key.name())) {
            throw new MalformedZnodeException(where, "is the lease of group " + MalformedZnodeException.quote(group)
                    + " of job " + MalformedZnodeException.quote(holder) + ", not of group " + key + " of job " + job);
        }
    }
}
