package dev.canopy.core.internal.membership;

/**
 * A znode's data is not what Canopy writes there: not JSON, a field missing, of the wrong type or
 * out of range. The one error of every decoder of data read from ZooKeeper (member and start
 * records, published plans and the plan pointer, calibrated thresholds, probe summaries), thrown
 * before a bad value is used. The message names the znode and the field; values from the znode
 * are quoted at most {@value #QUOTED_CHARS} characters long, so a huge znode cannot flood a log.
 */
public final class MalformedZnodeException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;
    static final int QUOTED_CHARS = 64;

    private final String where;
    private final String problem;

    /**
     * @param where   the znode's path
     * @param problem what is wrong, e.g. {@code field "epoch" is -3, not a plan epoch (>= 1)}
     */
    public MalformedZnodeException(String where, String problem) {
        this(where, problem, "was it written by another program or another Canopy version? use a fresh job name");
    }

    /** @param fix what the reader of the message should do, e.g. which znodes to delete */
    public MalformedZnodeException(String where, String problem, String fix) {
        super("ZooKeeper znode " + where + " " + problem + " (" + fix + ")");
        this.where = where;
        this.problem = problem;
    }

    /** Without a stack trace: the message names the znode and the field, which is all a reader can act on. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }

    /** The znode's path. */
    public String where() {
        return where;
    }

    /** What is wrong, without the znode and the fix. */
    public String problem() {
        return problem;
    }

    /** {@code value} as text for an error message, cut to {@value #QUOTED_CHARS} characters, control characters as '?'. */
    public static String quote(Object value) {
        StringBuilder clean = new StringBuilder();
        String.valueOf(value).chars().limit(QUOTED_CHARS + 1L).forEach(c -> clean.append(Character.isISOControl(c) ? '?' : (char) c));
        String text = clean.toString();
        int length = String.valueOf(value).length();
        return length <= QUOTED_CHARS ? text : text.substring(0, QUOTED_CHARS) + "... (" + length + " characters)";
    }
}
