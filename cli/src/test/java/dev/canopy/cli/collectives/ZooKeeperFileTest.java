package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.node.JobId;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The {@code --zk-file}: written whole, read as hostile input, waited for with a bound. */
@Timeout(30)
class ZooKeeperFileTest {

    private static final JobId JOB = JobId.of("job-a");

    @TempDir
    Path directory;

    @Test
    void aPublishedFileReadsBackForItsJobAsAnotherJobsForOthersAndLeavesNoTemporaryFile() throws Exception {
        Path file = directory.resolve("zk");
        ZooKeeperFile.publish(file, JOB, "10.0.0.7:34567");

        assertThat(ZooKeeperFile.read(file, JOB)).isEqualTo(new ZooKeeperFile.Published("10.0.0.7:34567"));
        assertThat(ZooKeeperFile.read(file, JobId.of("job-b"))).isEqualTo(new ZooKeeperFile.OtherJob("job-a"));
        assertThat(Files.list(directory)).containsExactly(file);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");
    }

    @Test
    void publishingAgainReplacesTheFileWhole() throws Exception {
        Path file = directory.resolve("zk");
        ZooKeeperFile.publish(file, JobId.of("old-job"), "n1.example:2181");
        ZooKeeperFile.publish(file, JOB, ZooKeeperFile.connectString("fd00::7", 2181));

        assertThat(ZooKeeperFile.read(file, JOB)).isEqualTo(new ZooKeeperFile.Published("[fd00::7]:2181"));
    }

    @Test
    void aMissingFileIsAbsent() {
        assertThat(ZooKeeperFile.read(directory.resolve("nothing"), JOB)).isEqualTo(new ZooKeeperFile.Absent());
    }

    @Test
    void everyMalformedFormIsRefusedSayingWhy() throws Exception {
        assertMalformed("canopy-zookeeper 1\njob job-a\nconnect 10.0.0.7:34567\n" + "#".repeat(600), "longer than 512 bytes");
        assertMalformed("canopy-zookeeper 1\njob job-a\nconnect 10.0.0.7:3456\u00007\n", "not printable ASCII (0x0)");
        assertMalformed("canopy-zookeeper 1\r\njob job-a\r\nconnect 10.0.0.7:34567\r\n", "not printable ASCII (0xd)");
        assertMalformed("canopy-zookeeper 2\njob job-a\nconnect 10.0.0.7:34567\n", "on three lines");
        assertMalformed("canopy-zookeeper 1\njob job-a\nconnect 10.0.0.7\n", "on three lines");
        assertMalformed("canopy-zookeeper 1\njob job-a\nconnect 10.0.0.7:34567,evil:1\n", "on three lines");
        assertMalformed("canopy-zookeeper 1\njob job-a\nconnect 10.0.0.7:34567\nextra\n", "on three lines");
        assertMalformed("canopy-zookeeper 1\njob job a\nconnect 10.0.0.7:34567\n", "on three lines");
        assertMalformed("canopy-zookeeper 1\njob job-a\nconnect 10.0.0.7:0\n", "port 0 is not between 1 and 65535");
        assertMalformed("canopy-zookeeper 1\njob job-a\nconnect 10.0.0.7:99999\n", "port 99999 is not between");
        assertMalformed("", "on three lines");
        Path aDirectory = Files.createDirectory(directory.resolve("a-directory"));
        assertThat(ZooKeeperFile.read(aDirectory, JOB)).isEqualTo(new ZooKeeperFile.Malformed("it is not a regular file"));
    }

    @Test
    void removingDeletesOnlyTheFileThatStillNamesThisServer() throws Exception {
        Path file = directory.resolve("zk");
        ZooKeeperFile.publish(file, JobId.of("later-job"), "127.0.0.1:2000");
        ZooKeeperFile.removeIfStill(file, JOB, "127.0.0.1:2000");
        assertThat(file).exists();

        ZooKeeperFile.publish(file, JOB, "127.0.0.1:2000");
        ZooKeeperFile.removeIfStill(file, JOB, "127.0.0.1:2000");
        assertThat(file).doesNotExist();
    }

    @Test
    void aWaitingProcessGetsTheAddressOnceProcessZeroPublishesIt() throws Exception {
        Path file = directory.resolve("zk");
        CompletableFuture<String> waited = CompletableFuture.supplyAsync(() -> {
            try {
                return ZooKeeperFileWait.await(file, JOB, Duration.ofSeconds(20));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        ZooKeeperFile.publish(file, JOB, "127.0.0.1:4242");

        assertThat(waited.get(20, TimeUnit.SECONDS)).isEqualTo("127.0.0.1:4242");
    }

    @Test
    void aMissingFileTimesOutNamingTheFileAndTheFix() {
        Path file = directory.resolve("zk");

        assertThatThrownBy(() -> ZooKeeperFileWait.await(file, JOB, Duration.ofMillis(300)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("process 0 of job job-a did not publish its embedded ZooKeeper within 300 ms: " + file
                        + " does not exist; check that process 0 runs with --zk embedded and the same --job and"
                        + " --zk-file, that the file's directory is shared by every host, or wait longer with --zk-wait");
    }

    @Test
    void aStaleFileOfAnotherJobIsWaitedPastAndNamedWhenTheWaitEnds() throws Exception {
        Path file = directory.resolve("zk");
        ZooKeeperFile.publish(file, JobId.of("yesterday"), "127.0.0.1:4242");

        assertThatThrownBy(() -> ZooKeeperFileWait.await(file, JOB, Duration.ofMillis(300)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(file + " names job yesterday, not this job job-a (a stale file of another job)");
    }

    @Test
    void aMalformedFileIsAnErrorAtOnce() throws Exception {
        Path file = directory.resolve("zk");
        Files.writeString(file, "zk1.example:2181\n");

        assertThatThrownBy(() -> ZooKeeperFileWait.await(file, JOB, Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the --zk-file " + file + " is not a ZooKeeper address file written by canopy node:")
                .hasMessageEndingWith("; delete it, or give a --zk-file path that only this job's processes use");
    }

    private void assertMalformed(String content, String why) throws Exception {
        Path file = directory.resolve("malformed");
        Files.write(file, content.getBytes(StandardCharsets.ISO_8859_1));
        assertThat(ZooKeeperFile.read(file, JOB)).as(content)
                .isInstanceOfSatisfying(ZooKeeperFile.Malformed.class, malformed -> assertThat(malformed.why()).contains(why));
    }
}
