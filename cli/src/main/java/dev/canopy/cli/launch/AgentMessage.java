package dev.canopy.cli.launch;

/**
 * A line a launched host sends up the start-up tree on its standard output, through the ssh session its parent
 * opened; the host's parent forwards its children's lines as they come. Fields are separated by a tab; the last
 * field of {@code out} and {@code problem} is free text to the end of the line. Every line read is checked
 * ({@link #parse}): a host is trusted with its own job, not with the launcher's memory or terminal.
 *
 * <pre>
 * started  HOST VIA       HOST runs its part of the job; it was reached from address VIA
 * out      PROCESS TEXT   a line of output of process PROCESS (level-file index)
 * exit     PROCESS STATUS process PROCESS ended with exit status STATUS
 * unreported PROCESS STATUS the ssh session to PROCESS's host ended with STATUS (1 for 0) before PROCESS reported an
 *                         exit status: it is gone or out of reach (sent by the host that opened that session)
 * problem  HOST TEXT      HOST could not do its part (a bad plan, a host it could not start); TEXT says why
 * lost     HOST STATUS    the ssh session to HOST ended with STATUS before all processes of HOST and the hosts
 *                         below it had reported (they are reported with {@code unreported} lines first)
 * </pre>
 */
sealed interface AgentMessage {

    /** Longest line accepted: a process's output line beyond this is cut by the sender ({@link Output#of}). */
    int MAX_LINE_CHARS = 64 * 1024;

    String encode();

    record Started(String host, String via) implements AgentMessage {
        @Override
        public String encode() {
            return "started\t" + host + "\t" + via;
        }
    }

    record Output(int process, String text) implements AgentMessage {
        /** A line of output, cut to fit one protocol line, control characters other than tabs shown as '?'. */
        static Output of(int process, String line) {
            String cut = line.length() > MAX_LINE_CHARS - 32 ? line.substring(0, MAX_LINE_CHARS - 32) + "..." : line;
            return new Output(process, printable(cut));
        }

        @Override
        public String encode() {
            return "out\t" + process + "\t" + text;
        }
    }

    record Exited(int process, int status) implements AgentMessage {
        @Override
        public String encode() {
            return "exit\t" + process + "\t" + status;
        }
    }

    record Unreported(int process, int status) implements AgentMessage {
        @Override
        public String encode() {
            return "unreported\t" + process + "\t" + status;
        }
    }

    record Problem(String host, String text) implements AgentMessage {
        @Override
        public String encode() {
            return "problem\t" + host + "\t" + printable(text);
        }
    }

    record Lost(String host, int sshStatus) implements AgentMessage {
        @Override
        public String encode() {
            return "lost\t" + host + "\t" + sshStatus;
        }
    }

    /**
     * Reads one line from a host below.
     *
     * @throws IllegalArgumentException when the line is not one of the forms above, or names a process not below
     *                                  {@code processCount}
     */
    static AgentMessage parse(String line, int processCount) {
        if (line.length() > MAX_LINE_CHARS) {
            throw new IllegalArgumentException("a line of " + line.length() + " characters (at most " + MAX_LINE_CHARS + ")");
        }
        String[] fields = line.split("\t", 3);
        if (fields.length != 3) {
            throw new IllegalArgumentException("not a launch agent line: " + excerpt(line));
        }
        return switch (fields[0]) {
            case "started" -> new Started(SshClient.requireHost(fields[1]), address(fields[2]));
            case "out" -> new Output(process(fields[1], processCount), printable(fields[2]));
            case "exit" -> new Exited(process(fields[1], processCount), status(fields[2]));
            case "unreported" -> new Unreported(process(fields[1], processCount), status(fields[2]));
            case "problem" -> new Problem(SshClient.requireHost(fields[1]), printable(fields[2]));
            case "lost" -> new Lost(SshClient.requireHost(fields[1]), status(fields[2]));
            default -> throw new IllegalArgumentException("not a launch agent line: " + excerpt(line));
        };
    }

    private static int process(String field, int processCount) {
        try {
            int process = Integer.parseInt(field);
            if (process >= 0 && process < processCount) {
                return process;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("\"" + excerpt(field) + "\" is not a process of this job (0 to "
                + (processCount - 1) + ")");
    }

    private static int status(String field) {
        try {
            int status = Integer.parseInt(field);
            if (status >= 0 && status <= 255) {
                return status;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("\"" + excerpt(field) + "\" is not an exit status (0 to 255)");
    }

    private static String address(String field) {
        if (!field.matches("[0-9A-Fa-f.:]{1,64}|unknown")) {
            throw new IllegalArgumentException("\"" + excerpt(field) + "\" is not an IP address");
        }
        return field;
    }

    /** {@code text} with control characters but tabs (escape sequences for the launcher's terminal) shown as '?'. */
    private static String printable(String text) {
        StringBuilder shown = new StringBuilder(text.length());
        text.codePoints().forEach(c -> shown.appendCodePoint(Character.isISOControl(c) && c != '\t' ? '?' : c));
        return shown.toString();
    }

    private static String excerpt(String text) {
        return printable(text.length() > 80 ? text.substring(0, 80) + "..." : text);
    }
}
