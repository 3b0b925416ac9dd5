package dev.canopy.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.canopy.collectives.internal.leader.LatencySnapshot;
import dev.canopy.collectives.internal.leader.PlanStore;
import dev.canopy.collectives.internal.leader.PublishedPlan;
import dev.canopy.core.internal.membership.testing.ServerSideExpiry;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.testing.Await;
import io.vertx.core.buffer.Buffer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard page in a real browser: Debian's chromium, headless, driven through chromedriver (Selenium),
 * against a running 6-node emulated grid: every site and member, the configured round trips, the trees, a plan
 * published while the page is open (epoch and re-plan timeline), a skew report naming a rank started late, and a
 * member the failure detectors judged failed. Skipped, saying so, where /usr/bin/chromium or /usr/bin/chromedriver
 * is missing ({@code apt-get install -y chromium chromium-driver}). Screenshots go to target/dashboard-*.png.
 */
@Timeout(180)
class DashboardBrowserTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static DashboardGrid grid;
    private static ChromeDriver browser;

    @BeforeAll
    static void start() {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "SKIPPED: the browser test needs Debian's chromium and chromedriver at " + CHROMIUM + " and " + CHROMEDRIVER
                        + " (apt-get install -y chromium chromium-driver)");
        grid = new DashboardGrid("dash-browser-" + System.nanoTime());
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--no-proxy-server");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (grid != null) {
            grid.close();
        }
    }

    @Test
    void pageShowsEverySiteTheConfiguredRoundTripsAndASkewReportWithoutConsoleErrors() throws Exception {
        browser.get(grid.url("/"));
        WebDriverWait wait = new WebDriverWait(browser, WAIT);
        // The page may redraw the grid between finding an element and reading it (the first fetch and the event
        // stream's both render it): a stale element is read again.
        wait.ignoring(StaleElementReferenceException.class);
        wait.until(page -> page.findElements(By.cssSelector("#grid .group.site")).size() == 3);
        List<String> sites = wait.until(page -> page.findElements(By.cssSelector("#grid .group.site")).stream()
                .map(site -> site.getAttribute("data-site")).toList());
        assertThat(sites).containsExactlyInAnyOrder("north", "south", "east");
        wait.until(page -> page.findElements(By.cssSelector("#grid .member.joined")).size() == 6);
        wait.until(page -> page.findElement(By.id("status")).getText().equals("live"));
        screenshot("grid");

        browser.findElement(By.cssSelector("nav button[data-view=links]")).click();
        WebElement cell = browser.findElement(By.cssSelector("#matrix td.cell[data-a=north][data-b=south]"));
        assertThat(cell.getText()).startsWith("12.0 /");
        assertThat(browser.findElement(By.cssSelector("#matrix td.cell[data-a=east][data-b=south]")).getText()).startsWith("70.0 /");
        screenshot("links");

        browser.findElement(By.cssSelector("nav button[data-view=plan]")).click();
        wait.until(page -> !page.findElements(By.cssSelector("#plan-trees svg")).isEmpty());
        // The plan leader's publication (here through its store) shows up live: the epoch, the timeline.
        CanopyNode publisher = grid.grid.nodes().get(0);
        PlanStore store = new PlanStore(publisher.context(), publisher.zooKeeper(), publisher.job(), grid.grid.secret());
        Await.result(store.ensureCreated());
        List<String> names = grid.grid.world().get(0).members().stream().map(m -> m.id().value()).toList();
        double[] oneWay = IntStream.range(0, 36).mapToDouble(i -> i / 6 == i % 6 ? 0 : 15).toArray();
        Await.result(store.publish(new PublishedPlan(1, new LatencySnapshot(names, oneWay), 45, "re-plan: shown in the browser"),
                "/members/" + publisher.id().value()));
        wait.until(page -> page.findElement(By.id("plan-summary")).getText().contains("epoch 1 (published)"));
        wait.until(page -> page.findElements(By.cssSelector("#replans li")).stream()
                .anyMatch(item -> item.getText().contains("re-plan: shown in the browser")));
        screenshot("plan");

        // A bcast in which rank 3 starts late: the page shows it live (pushed over the event stream).
        for (int rank = 0; rank < 6; rank++) {
            grid.collectives.get(rank).bcast(rank == 0 ? Buffer.buffer("warm") : null, 0);
        }
        Await.until(() -> grid.recorder.toJson(5).getJsonArray("communicators").size() == 1, () -> "warm-up recorded");
        for (int rank = 0; rank < 6; rank++) {
            if (rank != 3) {
                grid.collectives.get(rank).bcast(rank == 0 ? Buffer.buffer("late") : null, 0);
            }
        }
        grid.vertx.setTimer(400, id -> grid.collectives.get(3).bcast(null, 0));
        browser.findElement(By.cssSelector("nav button[data-view=collectives]")).click();
        wait.until(page -> page.findElements(By.cssSelector("#collectives .op")).size() == 2);
        String report = browser.findElement(By.cssSelector("#collectives .op")).getText();
        assertThat(report).contains("bcast").contains("rank 3 (").contains("late: process");
        screenshot("collectives");

        // No bcast runs over multicast in this grid: the multicast view says so.
        browser.findElement(By.cssSelector("nav button[data-view=multicast]")).click();
        wait.until(page -> page.findElement(By.id("multicast")).getText().contains("no bcast runs over multicast"));

        // A member whose ZooKeeper session the server expires falls silent: the others' failure detectors confirm
        // it, and the grid shows it failed, live.
        CanopyNode victim = grid.grid.nodes().get(1);
        ServerSideExpiry.expire(victim.zooKeeper());
        browser.findElement(By.cssSelector("nav button[data-view=grid]")).click();
        wait.until(page -> page.findElements(By.cssSelector("#grid .member.failed")).size() == 1);
        assertThat(browser.findElement(By.cssSelector("#grid .member.failed")).getAttribute("title"))
                .contains(victim.id().value()).contains("(failed)");
        assertThat(browser.findElements(By.cssSelector("#grid .member.joined"))).hasSize(5);
        screenshot("failed");

        List<LogEntry> errors = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
        assertThat(errors).as("console errors").isEmpty();
    }

    private static void screenshot(String name) throws Exception {
        File shot = browser.getScreenshotAs(OutputType.FILE);
        Path target = Path.of("target", "dashboard-" + name + ".png");
        Files.createDirectories(target.getParent());
        Files.copy(shot.toPath(), target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
