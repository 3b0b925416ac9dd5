package dev.canopy.cli.config;

import dev.canopy.cli.CanopyMain;
import java.io.PrintWriter;
import java.io.StringWriter;

/** One run of the canopy command line with its exit status and what it printed. */
record ConfigCli(int exitCode, String out, String err) {

    static ConfigCli run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = CanopyMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new ConfigCli(exitCode, out.toString(), err.toString());
    }
}
