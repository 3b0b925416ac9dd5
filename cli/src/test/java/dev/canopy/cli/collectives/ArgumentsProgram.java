package dev.canopy.cli.collectives;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.Canopy;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.collectives.run.JoinOptions;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

/**
 * Launched by the tests: a program with its own {@code main}. It prints each argument's UTF-8 bytes in hex (a
 * newline or tab inside an argument stays checkable), then joins by itself from the environment as docs/deployment.md
 * shows, on the address the launcher gives in {@code CANOPY_HOST}, and prints the sum of (1, rank).
 */
public final class ArgumentsProgram {

    /** Arguments a shell would split, expand or run, and an option of canopy's: they must arrive byte for byte. */
    public static final List<String> AWKWARD_ARGUMENTS = List.of("two words", "it's", "\"quoted\"", "$HOME", "`id`",
            "$(id)", "a;b", "x && y", "| cat", "*", "--zk", "-", "", "tab\there", "line\nbreak", "back\\slash",
            "\u00e9t\u00e9 \u2603");

    private ArgumentsProgram() {
    }

    public static void main(String[] args) {
        System.out.println("arguments " + args.length);
        for (int i = 0; i < args.length; i++) {
            System.out.println("argument " + i + " " + hex(args[i]));
        }
        // CANOPY_HOST (the host's own address over ssh) is bound by fromEnvironment.
        try (CanopySession session = Canopy.join(JoinOptions.fromEnvironment(System.getenv()))) {
            long[] sums = session.blocking(ArrayType.LONGS).allreduce(new long[] {1, session.rank()}, BuiltInOp.SUM);
            System.out.println("allreduce " + sums[0] + " " + sums[1]);
        }
    }

    /** What a test expects {@link #main} to print for argument {@code text}. */
    public static String hex(String text) {
        return "[" + HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8)) + "]";
    }
}
