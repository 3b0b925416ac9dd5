package dev.canopy.collectives.run;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The main class of every process {@code canopy launch} and {@code canopy node} start:
 * {@code ProgramMain CLASS [ARGS...]}. A {@link CanopyProgram} is run with a session joined from the
 * environment; any other class must have a {@code public static void main(String[])}, which joins
 * by itself ({@code Canopy.join(JoinOptions.fromEnvironment(System.getenv()))}).
 * Exit status: 0 when the program returned, 1 when it threw, 2 when the class cannot be run,
 * {@link EmergencyExit#FATAL_ERROR} after a fatal JVM error (out of memory, ...), whichever thread it hit
 * ({@link FatalErrors}), {@link EmergencyExit#LAUNCHER_GONE} when the {@code canopy launch} that started the
 * process died ({@link LauncherWatch}).
 */
public final class ProgramMain {

    private ProgramMain() {
    }

    public static void main(String[] args) {
        FatalErrors.install();
        LauncherWatch.startIfLaunched(System.getenv(), System.in);
        System.exit(run(args));
    }

    static int run(String[] args) {
        if (args.length == 0) {
            System.err.println("usage: ProgramMain CLASS [ARGS...]");
            return 2;
        }
        return run(args[0], ProgramMain.class.getClassLoader(), Arrays.copyOfRange(args, 1, args.length),
                () -> JoinOptions.fromEnvironment(System.getenv()));
    }

    /**
     * Runs {@code className} (loaded by {@code loader}) in this JVM: a {@link CanopyProgram} joins with {@code options}; a class with
     * {@code main} gets {@code args}. Returns the exit status; after a fatal JVM error in the program it does
     * not return: the process leaves its job and halts ({@link EmergencyExit}).
     */
    public static int run(String className, ClassLoader loader, String[] args, Supplier<JoinOptions> options) {
        return run(className, loader, args, options, session -> { });
    }

    /**
     * As {@link #run(String, ClassLoader, String[], Supplier)}; {@code joined} sees a {@link CanopyProgram}'s session
     * once joined, before the program runs (e.g. {@code canopy node --dashboard} follows its node's failure detector).
     */
    public static int run(String className, ClassLoader loader, String[] args, Supplier<JoinOptions> options,
            Consumer<CanopySession> joined) {
        return EmergencyExit.unlessExiting(runProgram(className, loader, args, () -> Canopy.join(options.get()), joined));
    }

    /**
     * As {@link #run(String, ClassLoader, String[], Supplier)}, a {@link CanopyProgram} with the session {@code join}
     * makes (blocking), e.g. on a Vert.x instance the process prepared before it knew its job (a spawn's warm JVM).
     */
    public static int runJoining(String className, ClassLoader loader, String[] args, Supplier<CanopySession> join) {
        return EmergencyExit.unlessExiting(runProgram(className, loader, args, join, session -> { }));
    }

    private static int runProgram(String className, ClassLoader loader, String[] args, Supplier<CanopySession> join,
            Consumer<CanopySession> joined) {
        Class<?> programClass;
        try {
            programClass = Class.forName(className, true, loader);
        } catch (ClassNotFoundException e) {
            System.err.println("program class " + className + " is not on the classpath; check --classpath");
            return 2;
        }
        try {
            if (CanopyProgram.class.isAssignableFrom(programClass)) {
                CanopyProgram program = (CanopyProgram) programClass.getConstructor().newInstance();
                CanopySession session = join.get();
                try {
                    joined.accept(session);
                    program.run(session);
                } catch (Exception | Error e) {
                    if (!FatalErrors.isFatal(e)) {
                        session.leave(); // a fatal error leaves through EmergencyExit, bounded in time
                    }
                    throw new InvocationTargetException(e);
                }
                session.close();
                return 0;
            }
            Method main = programClass.getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers())) {
                System.err.println(className + ".main is not static");
                return 2;
            }
            main.invoke(null, (Object) args);
            return 0;
        } catch (NoSuchMethodException e) {
            System.err.println(className + " is neither a CanopyProgram with a public no-argument constructor nor a class"
                    + " with public static void main(String[])");
            return 2;
        } catch (InvocationTargetException e) {
            if (FatalErrors.isFatal(e.getCause())) {
                FatalErrors.die(e.getCause(), "the program");
            }
            return failed(className, e.getCause());
        } catch (Exception e) {
            return failed(className, e);
        }
    }

    /** One line naming the failure; its stack trace only with {@code CANOPY_DEBUG=1} or {@code -Dcanopy.verbose=true}. */
    private static int failed(String className, Throwable failure) {
        System.err.println(className + " failed: " + failure);
        if ("1".equals(System.getenv("CANOPY_DEBUG")) || Boolean.getBoolean("canopy.verbose")) {
            failure.printStackTrace(System.err);
        }
        return 1;
    }
}
