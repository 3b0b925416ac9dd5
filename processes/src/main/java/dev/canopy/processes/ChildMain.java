package dev.canopy.processes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The main class of every child JVM a {@link ChildStarter} starts: {@code ChildMain ENTRY_CLASS}. It loads the
 * {@link ChildEntry}, warms it up, prints {@link #WARM_MARKER}, reads its {@link ChildBinding} as the first line
 * of standard input, sets the binding's system properties and runs it. A cold child gets that line at once; a warm one ({@link WarmPool}) waits for it.
 *
 * <p>Standard input stays a pipe from the starter, which writes nothing after the binding: when the starter dies,
 * however it dies, the pipe closes and the child exits with {@link #PARENT_GONE} (its shutdown hooks run, so a
 * joined program leaves its job). So no child outlives the agent or the process that started it.
 *
 * <p>Exit status: the entry's, {@link #CANNOT_RUN} when the entry or the binding is unusable,
 * {@link #PARENT_GONE} when the starter went away.
 */
public final class ChildMain {

    /** The line a child prints once it is warm and waits for its binding. */
    public static final String WARM_MARKER = "canopy-child: warm, waiting for a binding";
    /**
     * The line a bound child prints once its program is up (a spawned child: connected to its parents), so its
     * starter knows the start-up is over ({@link #reportStarted()}).
     */
    public static final String STARTED_MARKER = "canopy-child: started";
    /** The program or the entry cannot be run (unknown class, bad binding); the same status as canopy launch's. */
    public static final int CANNOT_RUN = 2;
    /** The starter's pipe closed; the same status as a launched rank whose launcher died. */
    public static final int PARENT_GONE = 4;

    private ChildMain() {
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: ChildMain ENTRY_CLASS (a " + ChildEntry.class.getName() + ")");
            System.exit(CANNOT_RUN);
        }
        ChildEntry entry;
        try {
            entry = (ChildEntry) Class.forName(args[0]).getConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            System.err.println("child entry " + args[0] + " cannot be loaded: it must be a " + ChildEntry.class.getName()
                    + " with a public no-argument constructor on the classpath (" + e + ")");
            System.exit(CANNOT_RUN);
            return;
        }
        entry.warmUp();
        System.out.println(WARM_MARKER);
        System.out.flush();
        BufferedReader parent = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        ChildBinding binding;
        try {
            String line = parent.readLine();
            if (line == null) {
                System.exit(PARENT_GONE); // the starter went away before binding this child: nothing to say
                return;
            }
            binding = ChildBinding.decode(line);
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("canopy child: unusable binding on standard input: " + e.getMessage());
            System.exit(CANNOT_RUN);
            return;
        }
        watchParent(parent);
        binding.properties().forEach(System::setProperty);
        System.exit(entry.run(binding));
    }

    /**
     * Tells the starter that this child's start-up is over: its warm pool then starts the replacement, which
     * would otherwise take CPU from this child's start (on a busy host, seconds). Harmless outside a child.
     */
    public static void reportStarted() {
        System.out.println(STARTED_MARKER);
        System.out.flush();
    }

    /** Exits with {@link #PARENT_GONE} once the starter's pipe ends. */
    private static void watchParent(BufferedReader parent) {
        Thread watch = new Thread(() -> {
            try {
                while (parent.read() >= 0) {
                    // The starter writes nothing after the binding; anything else is dropped.
                }
            } catch (IOException e) {
                // A broken pipe is the starter gone too.
            }
            System.err.println("canopy child: the process that started this one is gone; leaving");
            System.exit(PARENT_GONE);
        }, "canopy child parent watch");
        watch.setDaemon(true);
        watch.start();
    }
}
