package dev.canopy.cli.launch;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * How to reach a host: the system's OpenSSH client ({@code program}) with an optional user, port and extra
 * arguments, the same on the launching host and on every host that starts others (tree start-up). Built
 * from the {@code --ssh*} options ({@link SshOptions}) or from a launch plan; every part is checked, since
 * an argument beginning with {@code -} where ssh expects a host would be read as an option.
 */
record SshClient(String program, Optional<String> user, OptionalInt port, List<String> arguments) {

    /** User and host names as OpenSSH and POSIX accept them, never starting with {@code -}. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,252}");
    private static final int MAX_ARGUMENTS = 64;
    private static final int MAX_ARGUMENT_CHARS = 1024;

    SshClient {
        if (program.isBlank() || program.length() > MAX_ARGUMENT_CHARS || program.startsWith("-")) {
            throw new IllegalArgumentException("--ssh " + program + " is not a program: give the ssh client's name"
                    + " or path, e.g. --ssh ssh or --ssh /usr/bin/ssh");
        }
        if (user.isPresent() && !NAME.matcher(user.get()).matches()) {
            throw new IllegalArgumentException("--ssh-user " + user.get() + " is not a user name (letters, digits,"
                    + " '.', '_', '-', not starting with '-')");
        }
        if (port.isPresent() && (port.getAsInt() < 1 || port.getAsInt() > 65535)) {
            throw new IllegalArgumentException("--ssh-port " + port.getAsInt() + " is not a port (1-65535)");
        }
        arguments = List.copyOf(arguments);
        if (arguments.size() > MAX_ARGUMENTS || arguments.stream().anyMatch(a -> a.length() > MAX_ARGUMENT_CHARS
                || a.chars().anyMatch(c -> c < 0x20))) {
            throw new IllegalArgumentException("--ssh-args: at most " + MAX_ARGUMENTS + " arguments of at most "
                    + MAX_ARGUMENT_CHARS + " printable characters each");
        }
    }

    /** The default: {@code ssh} from the PATH, the user's own name and ssh's configured port. */
    static SshClient plain() {
        return new SshClient("ssh", Optional.empty(), OptionalInt.empty(), List.of());
    }

    /**
     * The command that runs {@code remoteCommand} (one shell command line, see {@link ShellWords}) on {@code host}.
     * No terminal ({@code -T}): standard input carries the launch plan, and a terminal would echo it. Batch
     * mode: a host that asks for a password fails at once instead of waiting for a user who cannot answer.
     *
     * @throws IllegalArgumentException when {@code host} is not a host name or address
     */
    List<String> command(String host, String remoteCommand) {
        requireHost(host);
        List<String> command = new ArrayList<>(List.of(program, "-T", "-o", "BatchMode=yes"));
        command.addAll(arguments);
        user.ifPresent(name -> command.addAll(List.of("-l", name)));
        port.ifPresent(number -> command.addAll(List.of("-p", Integer.toString(number))));
        command.add(host);
        command.add(remoteCommand);
        return command;
    }

    /** @throws IllegalArgumentException when {@code host} could be read as an option or is not a host name */
    static String requireHost(String host) {
        if (!NAME.matcher(host).matches()) {
            throw new IllegalArgumentException("host \"" + host + "\" is not a host name or IPv4 address that ssh"
                    + " can be given (letters, digits, '.', '_', '-', not starting with '-')");
        }
        return host;
    }

    JsonObject toJson() {
        JsonObject json = new JsonObject().put("program", program).put("arguments", new JsonArray(arguments));
        user.ifPresent(name -> json.put("user", name));
        port.ifPresent(number -> json.put("port", number));
        return json;
    }

    /** @throws IllegalArgumentException when a field is missing or invalid */
    static SshClient fromJson(JsonObject json) {
        List<String> arguments = new ArrayList<>();
        for (Object argument : PlanJson.array(json, "arguments")) {
            if (!(argument instanceof String text)) {
                throw new IllegalArgumentException("ssh arguments must be strings");
            }
            arguments.add(text);
        }
        Integer port = json.getValue("port") instanceof Integer number ? number : null;
        if (json.containsKey("port") && port == null) {
            throw new IllegalArgumentException("ssh port must be an integer");
        }
        return new SshClient(PlanJson.string(json, "program"), PlanJson.optionalString(json, "user"),
                port == null ? OptionalInt.empty() : OptionalInt.of(port), arguments);
    }
}
