package dev.canopy.cli.launch;

import java.util.List;
import java.util.stream.Collectors;

/** A command line for the remote shell that ssh hands its command to: each word single-quoted, so none is expanded. */
final class ShellWords {

    private ShellWords() {
    }

    /** {@code exec} followed by the words, each quoted. */
    static String exec(List<String> words) {
        return "exec " + words.stream().map(ShellWords::quote).collect(Collectors.joining(" "));
    }

    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
