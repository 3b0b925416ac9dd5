package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.gridconfig.GridConfigs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * kill -9 of a member while a collective is in flight, in separate JVMs under {@code canopy launch} on the
 * two-site grid (4 ranks, emulated 40 ms WAN): no survivor hangs, every survivor fails within
 * {@link #DETECTION_BOUND_MS} of the kill naming the killed rank, then the survivors revoke, agree, shrink
 * and run the collective again with the right result. Victims are drawn with a seed (printed; set it with
 * {@code -Dcanopy.seed=N}); each launch kills three ranks in turn: during a bcast, an allreduce, an alltoall.
 */
@Tag("multiprocess")
class KillCampaignTest {

    /** Generous for 4 JVMs on a shared 2-core machine; detection is typically a few ms (connection reset). */
    static final long DETECTION_BOUND_MS = 3_000;
    private static final Pattern LINE = Pattern.compile(
            "\\[rank \\d+\\] (KILL|FAILED|RECOVERED|DONE|WRONG) (.*)");

    @TempDir
    Path directory;

    @Test
    @Timeout(240)
    void threeKillsInTurnDuringBcastAllreduceAndAlltoall() throws Exception {
        long seed = Long.getLong("canopy.seed", System.nanoTime() % 100_000);
        System.out.println("kill campaign seed " + seed + " (rerun with -Dcanopy.seed=" + seed + ")");
        List<Integer> alive = new ArrayList<>(List.of(0, 1, 2, 3));
        Random random = new Random(seed);
        StringBuilder stages = new StringBuilder();
        for (char operation : new char[] {'b', 'a', 't'}) {
            int victim = alive.remove(random.nextInt(alive.size()));
            stages.append('-').append(operation).append(victim);
        }
        Campaign campaign = new Campaign();
        campaign.run(launch("kill-" + seed + stages), 4, "seed " + seed);
        campaign.report();
    }

    /**
     * The full campaign: 20 trials (or {@code -Dcanopy.campaign.trials=N}) x every rank position x (bcast,
     * allreduce, alltoall), one kill per launch: 240 launches, about an hour on 2 cores.
     */
    @Test
    @Tag("exhaustive")
    @Timeout(4 * 3600)
    void twentyTrialsOfEveryPositionAndCollective() throws Exception {
        Campaign campaign = new Campaign();
        int trials = Integer.getInteger("canopy.campaign.trials", 20);
        for (int trial = 0; trial < trials; trial++) {
            for (int position = 0; position < 4; position++) {
                for (char operation : new char[] {'b', 'a', 't'}) {
                    String job = "kill-" + trial + "-" + operation + position;
                    campaign.run(launch(job), 4, job);
                }
            }
        }
        campaign.report();
    }

    /** Checks launches and collects detection times. */
    static final class Campaign {

        private final List<Long> detections = new ArrayList<>();

        /** One launch that started with {@code size} ranks: every stage's survivors failed fast, naming the victim. */
        void run(Launched launched, int size, String what) {
            String output = launched.output();
            assertThat(output).as(what + ": nobody hangs\n" + output).doesNotContain("did not finish within");
            assertThat(output).as(what + ": no wrong result\n" + output).doesNotContain("] WRONG ");
            List<String[]> lines = new ArrayList<>();
            Matcher matcher = LINE.matcher(output);
            while (matcher.find()) {
                System.out.println(what + ": " + matcher.group());
                lines.add((matcher.group(1) + " " + matcher.group(2)).split(" ", 6));
            }
            List<String[]> kills = lines.stream().filter(l -> l[0].equals("KILL")).toList();
            assertThat(kills).as(what + ": one kill per stage\n" + output).isNotEmpty();
            int members = size;
            for (String[] kill : kills) {
                String stage = kill[1];
                String victim = kill[2];
                long killedAt = Long.parseLong(kill[3]);
                members--;
                List<String[]> failed = lines.stream().filter(l -> l[0].equals("FAILED") && l[1].equals(stage)).toList();
                assertThat(failed).as(what + ", stage " + stage + ": every survivor fails\n" + output).hasSize(members);
                for (String[] failure : failed) {
                    assertThat(failure[4]).as(what + ": the error names the killed rank: " + String.join(" ", failure))
                            .isEqualTo(victim);
                    long detection = Long.parseLong(failure[3]) - killedAt;
                    detections.add(detection);
                    assertThat(detection).as(what + ": rank " + failure[2] + " failed late: " + String.join(" ", failure))
                            .isLessThan(DETECTION_BOUND_MS);
                }
                int survivors = members;
                assertThat(lines.stream().filter(l -> l[0].equals("RECOVERED") && l[1].equals(stage)))
                        .as(what + ", stage " + stage + ": every survivor shrank and ran it again\n" + output)
                        .hasSize(survivors).allSatisfy(l -> assertThat(l[3]).isEqualTo(Integer.toString(survivors)));
            }
            assertThat(lines.stream().filter(l -> l[0].equals("DONE"))).as(what + ": the survivors finish\n" + output)
                    .hasSize(members);
        }

        void report() {
            List<Long> sorted = detections.stream().sorted().toList();
            System.out.println("kill -9 detection over " + sorted.size() + " survivor failures: median "
                    + sorted.get(sorted.size() / 2) + " ms, max " + sorted.get(sorted.size() - 1) + " ms");
        }
    }

    record Launched(int status, String output) {
    }

    private Launched launch(String job) throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(out));
        int status = cli.execute("launch", "--config", config.toString(), "--class", KillCampaignProgram.class.getName(),
                "--job", job, "--timeout", "120");
        return new Launched(status, out.toString());
    }
}
