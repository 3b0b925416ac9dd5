package dev.canopy.cli.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.cli.testing.Poll;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** For the cli's dashboard tests: a command run in the background, the URL it prints, and GETs of its endpoints. */
public final class DashboardClient {

    private static final Pattern URL = Pattern.compile("(?m)^(?:\\[rank \\d+\\] )?dashboard: (http://127\\.0\\.0\\.1:\\d+/)$");

    private DashboardClient() {
    }

    /** Runs {@code canopy ARGS} on another thread; its output (and errors) go to {@code out}. */
    public static CompletableFuture<Integer> run(StringWriter out, String... args) {
        return CompletableFuture.supplyAsync(() -> new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(out, true)).execute(args));
    }

    /** The URL the command prints on its own line ({@code dashboard: http://127.0.0.1:PORT/}), waiting up to 30 s. */
    public static String awaitUrl(StringWriter out, CompletableFuture<Integer> exit) {
        Poll.until(Duration.ofSeconds(30), () -> URL.matcher(out.toString()).find() || exit.isDone(),
                () -> "the dashboard's URL in: " + out);
        Matcher matcher = URL.matcher(out.toString());
        assertThat(matcher.find()).as("URL printed; output: " + out + ", exit " + exit.getNow(null)).isTrue();
        return matcher.group(1);
    }

    /** The JSON body of {@code GET url}. */
    public static JsonObject get(String url) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return new JsonObject(response.body());
        } catch (IOException e) {
            throw new AssertionError("GET " + url + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
