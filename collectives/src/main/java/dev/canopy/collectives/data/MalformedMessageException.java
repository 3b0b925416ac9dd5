package dev.canopy.collectives.data;

/**
 * The bytes of a collective message do not have the layout the protocol gives them, or do not fit the
 * collective that received them: a length, count, size, rank, index or code read from the wire is out
 * of range. The one error of every decoder of collective messages ({@code CollectiveFrame},
 * {@code RankBlocks}, {@code PartialReduction}, the broadcast and reduce segment prefixes,
 * {@link ValueCodec}, {@link IndexedValues}), thrown before a bad value is used; docs/wire-format.md
 * lists the rules.
 *
 * <p>A running collective that receives a malformed message fails, on this member and (through its
 * abort) on the others, with a {@code CollectiveFailedException} whose cause is this; the node, its
 * connections and other collectives carry on. The message names what was wrong and where.
 */
public final class MalformedMessageException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /**
     * Without a stack trace: the message says what and where, the trace of the failed collective is
     * in its {@code CollectiveFailedException}, and a peer sending garbage should not make each
     * rejection cost a stack walk.
     */
    public MalformedMessageException(String message) {
        super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
