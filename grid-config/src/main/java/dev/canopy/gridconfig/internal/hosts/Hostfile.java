package dev.canopy.gridconfig.internal.hosts;

import dev.canopy.gridconfig.Diagnostic;
import dev.canopy.gridconfig.Excerpt;
import dev.canopy.gridconfig.internal.input.BoundedInput;
import dev.canopy.gridconfig.internal.input.BoundedLines;
import dev.canopy.gridconfig.internal.input.InputStalledException;
import dev.canopy.gridconfig.internal.input.InputTooLargeException;
import dev.canopy.gridconfig.internal.input.LineTooLongException;
import dev.canopy.gridconfig.internal.rsl.Diagnostics;
import dev.canopy.gridconfig.internal.rsl.Position;
import dev.canopy.gridconfig.model.GridModel;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an MPI hostfile: one host per line, in either of the two formats MPI users have,
 *
 * <pre>
 * # Open MPI                       # MPICH / Hydra (mpiexec -f)
 * node01.a.example slots=4         node01.a.example:4
 * node02.a.example slots=4 max_slots=8
 * node03.b.example                 node03.b.example      (one slot)
 * </pre>
 *
 * and both may be mixed. {@code #} starts a comment, to the end of the line; blank lines are skipped. A
 * host without a slot count has one slot (Open MPI would count its cores: write {@code slots=N}).
 * {@code max_slots} (or {@code max-slots}) is checked and otherwise ignored. A host listed twice has the
 * slots of both lines, at the place of its first line, as {@code mpirun} counts them. Every problem is
 * reported with its line and column. At most {@link #MAX_FILE_BYTES} are read, lines of at most
 * {@link #MAX_LINE_CHARS} characters, {@link HostList#MAX_HOSTS} hosts and {@link GridModel#MAX_PROCESSES} slots.
 */
public final class Hostfile {

    public static final long MAX_FILE_BYTES = 4L * 1024 * 1024;
    public static final int MAX_LINE_CHARS = 4096;

    private final String file;
    private final Diagnostics problems;
    private final Map<String, LaunchHost> hosts = new LinkedHashMap<>();
    private long slots;
    private boolean slotLimitReported;

    private Hostfile(String file) {
        this.file = file;
        this.problems = new Diagnostics(file);
    }

    /** Reads hostfile text; {@code file} names it in messages. */
    public static HostList parse(String text, String file) {
        try {
            return read(new StringReader(text), file);
        } catch (IOException e) {
            return invalid(file, "cannot be read: " + Excerpt.of(String.valueOf(e.getMessage())));
        }
    }

    /** Reads the hostfile at {@code path} (UTF-8, at most {@link #MAX_FILE_BYTES}, whatever kind of file it is). */
    public static HostList load(Path path) {
        return load(path, BoundedInput.DEFAULT_IDLE_TIMEOUT);
    }

    /** As {@link #load(Path)}, giving up when no byte arrives for {@code idleTimeout} (a FIFO without writer). */
    public static HostList load(Path path, Duration idleTimeout) {
        String file = path.toString();
        if (Files.isDirectory(path)) {
            return invalid(file, "is a directory, not a hostfile");
        }
        try (Reader reader = new InputStreamReader(BoundedInput.open(path, MAX_FILE_BYTES, idleTimeout),
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT))) {
            return read(reader, file);
        } catch (NoSuchFileException e) {
            return invalid(file, "no such file");
        } catch (CharacterCodingException e) {
            return invalid(file, "is not UTF-8 text");
        } catch (InputTooLargeException e) {
            return invalid(file, "is larger than " + MAX_FILE_BYTES + " bytes; not a hostfile");
        } catch (InputStalledException e) {
            return invalid(file, e.getMessage());
        } catch (IOException e) {
            return invalid(file, "cannot be read: " + Excerpt.of(String.valueOf(e.getMessage())));
        }
    }

    private static HostList invalid(String file, String message) {
        return new HostList(file, List.of(), List.of(Diagnostic.ofFile(file, message)));
    }

    private static HostList read(Reader reader, String file) throws IOException {
        Hostfile hostfile = new Hostfile(file);
        BoundedLines lines = new BoundedLines(reader, MAX_LINE_CHARS);
        try {
            String line;
            while ((line = lines.next()) != null) {
                hostfile.line(line, (int) lines.lineNumber());
            }
        } catch (LineTooLongException e) {
            hostfile.problems.error(new Position((int) e.line(), 1), "line is longer than " + MAX_LINE_CHARS
                    + " characters; not a hostfile line (one host per line: node01 slots=4, or node01:4)");
        }
        return hostfile.result();
    }

    private void line(String text, int number) {
        int comment = text.indexOf('#');
        String content = comment >= 0 ? text.substring(0, comment) : text;
        List<Word> words = Word.split(content);
        if (words.isEmpty()) {
            return;
        }
        Word first = words.get(0);
        String name = first.text();
        Integer slotsGiven = null;
        int colon = name.indexOf(':');
        if (colon >= 0) {
            slotsGiven = count(name.substring(colon + 1), "the slots after ':'", new Position(number, first.column() + colon + 1));
            name = name.substring(0, colon);
            if (slotsGiven == null) {
                return;
            }
        }
        if (!checkName(name, new Position(number, first.column()))) {
            return;
        }
        Integer maxSlots = null;
        for (Word option : words.subList(1, words.size())) {
            Position at = new Position(number, option.column());
            int equals = option.text().indexOf('=');
            String key = equals < 0 ? option.text() : option.text().substring(0, equals);
            if (equals < 0 || !List.of("slots", "max_slots", "max-slots").contains(key)) {
                problems.error(at, "unknown option " + Excerpt.quoted(option.text()) + " after host " + name
                        + "; a hostfile line is 'host slots=N [max_slots=M]' (Open MPI) or 'host:N' (MPICH/Hydra)");
                return;
            }
            Integer value = count(option.text().substring(equals + 1), key, new Position(number, option.column() + equals + 1));
            if (value == null) {
                return;
            }
            if (key.equals("slots")) {
                if (slotsGiven != null) {
                    problems.error(at, "the slots of host " + name + " are given twice; keep one of 'host:N' and 'slots=N'");
                    return;
                }
                slotsGiven = value;
            } else {
                maxSlots = value;
            }
        }
        int hostSlots = slotsGiven == null ? 1 : slotsGiven;
        if (maxSlots != null && maxSlots < hostSlots) {
            problems.error(new Position(number, first.column()), "host " + name + " has max_slots=" + maxSlots
                    + " below its " + hostSlots + " slots; raise max_slots or lower slots");
            return;
        }
        add(name, hostSlots, number, first.column());
    }

    private boolean checkName(String name, Position at) {
        return HostNames.problem(name).map(problem -> {
            problems.error(at, problem);
            return false;
        }).orElse(true);
    }

    /** A slot count, 1 to the process limit; null after reporting why {@code text} is not one. */
    private Integer count(String text, String what, Position at) {
        if (text.isEmpty() || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            problems.error(at, what + " must be a whole number, got " + Excerpt.quoted(text));
            return null;
        }
        if (text.length() > 7 || Integer.parseInt(text) > GridModel.MAX_PROCESSES) {
            problems.error(at, what + " must be at most " + GridModel.MAX_PROCESSES + ", got " + Excerpt.of(text));
            return null;
        }
        int value = Integer.parseInt(text);
        if (value < 1) {
            problems.error(at, what + " must be at least 1, got " + value);
            return null;
        }
        return value;
    }

    private void add(String name, int hostSlots, int line, int column) {
        if (slots + hostSlots > GridModel.MAX_PROCESSES) {
            if (!slotLimitReported) {
                problems.error(new Position(line, column), "the hosts up to here have " + (slots + hostSlots)
                        + " slots, more than a job's " + GridModel.MAX_PROCESSES + " processes");
                slotLimitReported = true;
            }
            return;
        }
        slots += hostSlots;
        LaunchHost earlier = hosts.get(name);
        if (earlier != null) {
            hosts.put(name, earlier.withMoreSlots(hostSlots));
        } else if (hosts.size() == HostList.MAX_HOSTS) {
            problems.error(new Position(line, column), "more than " + HostList.MAX_HOSTS + " hosts");
        } else {
            hosts.put(name, new LaunchHost(name, hostSlots, line));
        }
    }

    private HostList result() {
        if (problems.isEmpty() && hosts.isEmpty()) {
            return invalid(file, "lists no host; write one host per line: 'node01 slots=4' (Open MPI) or 'node01:4'"
                    + " (MPICH/Hydra)");
        }
        return new HostList(file, problems.isEmpty() ? List.copyOf(hosts.values()) : List.of(), problems.sorted());
    }

    /** A word of a line and its 1-based column. */
    private record Word(String text, int column) {

        static List<Word> split(String line) {
            List<Word> words = new ArrayList<>();
            int i = 0;
            while (i < line.length()) {
                while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
                    i++;
                }
                int start = i;
                while (i < line.length() && !Character.isWhitespace(line.charAt(i))) {
                    i++;
                }
                if (i > start) {
                    words.add(new Word(line.substring(start, i), start + 1));
                }
            }
            return words;
        }
    }
}
