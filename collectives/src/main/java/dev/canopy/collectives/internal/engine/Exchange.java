package dev.canopy.collectives.internal.engine;

import dev.canopy.collectives.CollectiveFailedException;
import dev.canopy.collectives.CollectiveMismatchException;
import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.CommunicatorRevokedException;
import dev.canopy.core.comm.Message;
import dev.canopy.core.comm.PointToPoint;
import dev.canopy.core.comm.RankFailedException;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongPredicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The messages of one running collective: every frame carries the operation, its step, the
 * collective's sequence number and the plan id, and travels on the tag derived from the
 * sequence number, so concurrent collectives never match each other's messages.
 *
 * <p>{@link #run} turns any failure into an abort: the member tells every other member (on this
 * collective's tag) which rank failed, so members waiting on a healthy peer that will never send
 * also fail instead of hanging. Members receiving an abort pass it on once.
 *
 * <p>A received message that is malformed ({@link MalformedMessageException}: a bad header, an
 * abort body out of range, a message beyond 2 GiB, or a body its collective rejects) is such a
 * failure: the collective fails on every member with a {@link CollectiveFailedException} whose cause
 * names the problem and the sender. It is not dropped, because its sender's real message would
 * then never come and the collective would hang instead.
 */
public final class Exchange {

    private static final Logger LOG = LoggerFactory.getLogger(Exchange.class);
    /** Tags stay positive and clear of ANY_TAG (-1); sequence numbers wrap after 2^30 collectives. */
    private static final int TAG_MASK = 0x3FFF_FFFF;
    /** Largest body sent as one frame: well under the transport's default 16 MiB frame limit. */
    static final int CHUNK_BYTES = 4 << 20;
    /** Largest message received in chunks: what one buffer holds. */
    static final int MAX_MESSAGE_BYTES = Integer.MAX_VALUE - 8;
    /** How every mismatch ends: what the members must do alike. */
    private static final String SAME_ORDER =
            ": members must start the same collectives in the same order with the same plan";

    private final PointToPoint channel;
    private final Operation operation;
    private final int sequence;
    /** The plan id this member runs the collective with; set once more by {@link #adoptSendersPlan}. */
    private long plan;
    private final int tag;
    /** The first frame {@link #adoptSendersPlan} took from any source, until its sender's next receive takes it. */
    private Message adopted;
    private final String label;

    /**
     * @param plan  the id of the plan the collective runs with ({@code CollectivePlan.epoch()})
     * @param label how log lines name this member, {@code site/host#rank}
     */
    public Exchange(PointToPoint channel, Operation operation, int sequence, long plan, String label) {
        this.channel = channel;
        this.label = label;
        this.operation = operation;
        this.sequence = sequence;
        this.plan = plan;
        this.tag = sequence & TAG_MASK;
    }

    public int rank() {
        return channel.rank();
    }

    public int size() {
        return channel.size();
    }

    public Operation operation() {
        return operation;
    }

    /** The id of the plan this member runs the collective with, as its frames carry it. */
    public long plan() {
        return plan;
    }

    /** The first frame of a collective whose sender chose the plan: who sent it and the plan id it carries. */
    public record SendersPlan(int source, long plan) {
    }

    /**
     * For a member that learns the collective's plan from the data (a bcast's receivers do not know the message
     * size, so the root's size class travels in the plan id of its frames): takes the first frame of {@code step}
     * from whichever rank sends it, checks its header and that {@code known} accepts its plan id (else a
     * {@link CollectiveMismatchException}), and runs the collective on that id from then on. The frame stays for the
     * next {@link #receive} from its sender; the caller checks that the sender is the one its tree names.
     */
    public Future<SendersPlan> adoptSendersPlan(int step, LongPredicate known) {
        return channel.receive(Communicator.ANY_SOURCE, tag).map(message -> {
            CollectiveFrame.Header received = checkedHeader(message, step);
            CollectiveFrame.Header expected = new CollectiveFrame.Header(received.kind(), operation, step, sequence,
                    received.plan());
            if (!known.test(received.plan()) || !received.equals(expected)) {
                throw new CollectiveMismatchException("rank " + message.source() + " sent " + describe(received)
                        + " while rank " + rank() + " expected step " + step + " of " + operation.displayName() + " #"
                        + sequence + " on one of the size classes of plan " + plan + SAME_ORDER);
            }
            plan = received.plan();
            adopted = message;
            return new SendersPlan(message.source(), received.plan());
        });
    }

    /** A message's body and the plan id its header carries, for a check of the sender's plan. */
    public record OnPlan(long plan, Buffer body) {
    }

    /**
     * The next message from {@code source}, whatever plan id it carries (every other field must match): for a
     * member that checks the sender's plan itself ({@code SizeClassCheck}) and explains a difference.
     */
    public Future<OnPlan> receiveOnAnyPlan(int source, int step) {
        return channel.receive(source, tag).map(message -> {
            CollectiveFrame.Header received = checkedHeader(message, step);
            CollectiveFrame.Header expected = new CollectiveFrame.Header(CollectiveFrame.Kind.DATA, operation, step,
                    sequence, received.plan());
            if (!received.equals(expected)) {
                throw new CollectiveMismatchException("rank " + source + " sent " + describe(received) + " while rank "
                        + rank() + " expected " + describe(expected) + SAME_ORDER);
            }
            return new OnPlan(received.plan(), CollectiveFrame.body(message.payload()));
        });
    }

    /** A received frame's header; an abort ends the collective, a malformed frame fails it naming the sender. */
    private CollectiveFrame.Header checkedHeader(Message message, int step) {
        try {
            CollectiveFrame.Header received = CollectiveFrame.header(message.payload());
            if (received.kind() == CollectiveFrame.Kind.ABORT) {
                throw new AbortReceived(checkRanks(CollectiveFrame.abortBody(message.payload())));
            }
            return received;
        } catch (MalformedMessageException e) {
            throw fromSource(message.source(), step, e);
        }
    }

    /** The next frame from {@code source}: the one {@link #adoptSendersPlan} took, if it came from there. */
    private Future<Message> nextFrame(int source) {
        if (adopted != null && adopted.source() == source) {
            Message first = adopted;
            adopted = null;
            return Future.succeededFuture(first);
        }
        return channel.receive(source, tag);
    }

    /**
     * Sends {@code body} to {@code destination}; bodies above {@value #CHUNK_BYTES} bytes go as several
     * frames (all but the last marked {@link CollectiveFrame.Kind#CONTINUED}), which FIFO order per
     * (source, tag) keeps together, so a gathered subtree never exceeds the transport's frame limit.
     */
    public Future<Void> send(int destination, int step, Buffer body) {
        if (body.length() <= CHUNK_BYTES) {
            return channel.send(destination, tag, CollectiveFrame.data(header(CollectiveFrame.Kind.DATA, step), body));
        }
        List<Future<Void>> chunks = new ArrayList<>();
        for (int from = 0; from < body.length(); from += CHUNK_BYTES) {
            int to = Math.min(body.length(), from + CHUNK_BYTES);
            CollectiveFrame.Kind kind = to == body.length() ? CollectiveFrame.Kind.DATA : CollectiveFrame.Kind.CONTINUED;
            // A slice, not a copy: data() copies it into the frame at once.
            chunks.add(channel.send(destination, tag, CollectiveFrame.data(header(kind, step), body.slice(from, to))));
        }
        return Future.all(chunks).mapEmpty();
    }

    /**
     * The body of the next message from {@code source}, in a buffer of its own; fails on an abort or
     * a mismatched header.
     */
    public Future<Buffer> receive(int source, int step) {
        return receiveChunks(source, step, new ArrayList<>());
    }

    /**
     * The next message from {@code source}, decoded by {@code decoder}, which throws
     * {@link MalformedMessageException} for a body it rejects; that error then names the sender,
     * step and collective, and fails the collective.
     */
    public <T> Future<T> receive(int source, int step, Function<Buffer, T> decoder) {
        return receive(source, step).map(body -> {
            try {
                return decoder.apply(body);
            } catch (MalformedMessageException e) {
                throw fromSource(source, step, e);
            }
        });
    }

    /**
     * {@code chunks} collects the bodies of the continued chunks received so far, as views of their
     * frames (which nothing else holds), so a chunked message is copied once, into a buffer of its
     * total size.
     */
    private Future<Buffer> receiveChunks(int source, int step, List<Buffer> chunks) {
        return nextFrame(source).compose(message -> {
            CollectiveFrame.Header received = checkedHeader(message, step);
            CollectiveFrame.Header expected = header(received.kind(), step);
            if (!received.equals(expected)) {
                throw new CollectiveMismatchException("rank " + source + " sent " + describe(received)
                        + " while rank " + rank() + " expected " + describe(expected) + SAME_ORDER);
            }
            if (chunks.isEmpty() && received.kind() == CollectiveFrame.Kind.DATA) {
                return Future.succeededFuture(CollectiveFrame.body(message.payload()));
            }
            chunks.add(CollectiveFrame.bodyView(message.payload()));
            if (totalLength(chunks) > MAX_MESSAGE_BYTES) {
                throw fromSource(source, step, new MalformedMessageException("a chunked message grew beyond "
                        + MAX_MESSAGE_BYTES + " bytes, more than one buffer holds"));
            }
            return received.kind() == CollectiveFrame.Kind.CONTINUED
                    ? receiveChunks(source, step, chunks)
                    : Future.succeededFuture(concatenate(chunks));
        });
    }

    private static long totalLength(List<Buffer> chunks) {
        long length = 0;
        for (Buffer chunk : chunks) {
            length += chunk.length();
        }
        return length;
    }

    private static Buffer concatenate(List<Buffer> chunks) {
        Buffer whole = Buffer.buffer((int) totalLength(chunks));
        chunks.forEach(whole::appendBuffer);
        return whole;
    }

    /**
     * Runs a collective's stages; if they fail, aborts the collective on every other member and
     * fails with a {@link CollectiveFailedException} naming the failed rank when one failed.
     */
    public <T> Future<T> run(Supplier<Future<T>> stages) {
        Future<T> result;
        try {
            result = stages.get();
        } catch (RuntimeException e) {
            result = Future.failedFuture(e);
        }
        return result.recover(this::abort);
    }

    private <T> Future<T> abort(Throwable cause) {
        CollectiveFrame.Abort abort = abortFor(cause);
        LOG.warn("[{}] {} #{} aborted: {}", label, operation.displayName(), sequence, abort.reason());
        Buffer frame = CollectiveFrame.abort(header(CollectiveFrame.Kind.DATA, 0), abort);
        for (int peer = 0; peer < size(); peer++) {
            if (peer != rank() && peer != abort.failedRank()) {
                int destination = peer;
                channel.send(destination, tag, frame).onFailure(e -> LOG.debug(
                        "[{}] abort of {} #{} did not reach rank {}: {}", label, operation.displayName(), sequence, destination,
                        e.toString()));
            }
        }
        return Future.failedFuture(new CollectiveFailedException(operation.displayName(), sequence, abort.failedRank(),
                abort.reason(), cause));
    }

    private CollectiveFrame.Abort abortFor(Throwable cause) {
        if (cause instanceof AbortReceived received) {
            return received.abort;
        }
        if (cause instanceof RankFailedException failed) {
            // A rank that left on purpose after another failed is not the failure: name the one that failed first.
            return new CollectiveFrame.Abort(failed.rootCauseRank(), rank(), failed.getMessage());
        }
        if (cause instanceof CommunicatorRevokedException revoked) {
            return new CollectiveFrame.Abort(revoked.causeRank().orElse(-1), rank(), revoked.getMessage());
        }
        return new CollectiveFrame.Abort(-1, rank(), "rank " + rank() + " failed the collective: " + cause);
    }

    /** An abort whose ranks are outside this communicator is malformed: it could not name who failed. */
    private CollectiveFrame.Abort checkRanks(CollectiveFrame.Abort abort) {
        if (abort.failedRank() >= size() || abort.originRank() >= size()) {
            throw new MalformedMessageException("abort names failed rank " + abort.failedRank() + " and origin rank "
                    + abort.originRank() + ", outside this " + size() + "-member communicator");
        }
        return abort;
    }

    /**
     * {@code problem} with where it came from: a collective that checks a body it received throws
     * through here too, via {@link #malformed}.
     */
    private MalformedMessageException fromSource(int source, int step, MalformedMessageException problem) {
        return new MalformedMessageException("malformed message from rank " + source + " in step " + step + " of "
                + operation.displayName() + " #" + sequence + ": " + problem.getMessage());
    }

    /**
     * The error a collective throws when a body it received from {@code source} in {@code step} does
     * not fit (a block for a rank outside the sender's subtree, a segment of the wrong length): a
     * {@link MalformedMessageException} naming the sender, the step and the collective.
     */
    MalformedMessageException malformed(int source, int step, String problem) {
        return fromSource(source, step, new MalformedMessageException(problem));
    }

    private CollectiveFrame.Header header(CollectiveFrame.Kind kind, int step) {
        return new CollectiveFrame.Header(kind, operation, step, sequence, plan);
    }

    private static String describe(CollectiveFrame.Header header) {
        return "step " + header.step() + " of " + header.operation().displayName() + " #" + header.sequence()
                + " (plan " + header.plan() + ")";
    }

    /** Another member aborted this collective; carried up to {@link #run} to become the member's failure. */
    private static final class AbortReceived extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient CollectiveFrame.Abort abort;

        AbortReceived(CollectiveFrame.Abort abort) {
            super("aborted by rank " + abort.originRank() + ": " + abort.reason(), null, false, false);
            this.abort = abort;
        }
    }
}
