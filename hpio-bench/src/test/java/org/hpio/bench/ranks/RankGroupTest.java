package org.hpio.bench.ranks;

import org.hpio.bulk.LaunchRank;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ranks simulated as threads, meeting through a temporary directory as processes on many machines would. */
class RankGroupTest {
    private static final RankTimeouts QUICK = new RankTimeouts(Duration.ofSeconds(3), Duration.ofMillis(600),
            Duration.ofMillis(100));

    @TempDir
    Path dir;

    /** What one simulated rank does with its group; its result or failure is the rank's. */
    @FunctionalInterface
    private interface RankBody {
        Object run(RankGroup group) throws Exception;
    }

    /** Runs ranks {@code ranks} of a launch of {@code size} as threads; their results or failures, by rank. */
    private List<Future<Object>> launch(int size, List<Integer> ranks, RankTimeouts timeouts, RankBody body)
            throws InterruptedException {
        List<Future<Object>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory())) {
            for (int rank : ranks) {
                results.add(pool.submit(() -> {
                    try (RankGroup group = RankGroup.join(dir.resolve("ranks"), new LaunchRank(rank, size, "test"), timeouts)) {
                        return body.run(group);
                    }
                }));
            }
        }
        return results;
    }

    private static Throwable failure(Future<Object> result) {
        try {
            result.get();
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("the rank succeeded; a failure was expected");
    }

    private static void assertMentions(Throwable t, String... parts) {
        for (String part : parts) {
            assertTrue(String.valueOf(t.getMessage()).contains(part), () -> "'" + part + "' not in: " + t.getMessage());
        }
    }

    @Test
    void everyRankGetsEveryRanksTextInRankOrderAndRankZeroTidiesUp() throws Exception {
        List<Future<Object>> results = launch(4, List.of(0, 1, 2, 3), QUICK, group -> {
            List<List<String>> seen = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                seen.add(group.exchange("round " + round, "rank " + group.rank() + " round " + round));
            }
            group.leave();
            return seen;
        });
        for (Future<Object> result : results) {
            assertEquals(List.of(
                    List.of("rank 0 round 0", "rank 1 round 0", "rank 2 round 0", "rank 3 round 0"),
                    List.of("rank 0 round 1", "rank 1 round 1", "rank 2 round 1", "rank 3 round 1"),
                    List.of("rank 0 round 2", "rank 1 round 2", "rank 2 round 2", "rank 3 round 2")), result.get());
        }
        assertFalse(Files.exists(dir.resolve("ranks")), "rank 0 leaves no meeting files behind");
    }

    @Test
    void aRankThatFailsStopsTheOthersWithItsNameAndReason() throws Exception {
        List<Future<Object>> results = launch(3, List.of(0, 1, 2), QUICK, group -> {
            if (group.rank() == 1) {
                group.fail(new IOException("disk on fire"));
                return "failed on purpose";
            }
            group.meet("after the failure");
            return "met";
        });
        for (int rank : List.of(0, 2)) {
            Throwable t = failure(results.get(rank));
            assertEquals(1, assertInstanceOf(RankFailedException.class, t).rank());
            assertMentions(t, "rank 1 failed", "disk on fire", "'after the failure'");
        }
    }

    /** The first beat is on disk when start returns, however late the beating thread runs (a loaded CI machine). */
    @Test
    void aRankHasAHeartbeatFromTheMomentItJoins() throws Exception {
        Path session = Files.createDirectories(dir.resolve("beats"));
        Heartbeat heartbeat = Heartbeat.start(session, 7, Duration.ofSeconds(60));
        heartbeat.close();
        assertTrue(MarkerFile.read(Heartbeat.file(session, 7)).isPresent(), "a heartbeat file, even if closed at once");
    }

    @Test
    void aRankThatDiesMidRunIsNamedByItsStoppedHeartbeatLongBeforeTheTimeout() throws Exception {
        RankTimeouts patient = new RankTimeouts(Duration.ofSeconds(60), Duration.ofMillis(600), Duration.ofMillis(100));
        long start = System.nanoTime();
        List<Future<Object>> results = launch(3, List.of(0, 1, 2), patient, group -> {
            group.meet("everyone alive");
            if (group.rank() == 2) {
                return "gone without a word";    // closing the group stops the heartbeat, as death would
            }
            group.meet("rank 2 never comes");
            return "met";
        });
        for (int rank : List.of(0, 1)) {
            Throwable t = failure(results.get(rank));
            assertEquals(2, assertInstanceOf(RankFailedException.class, t).rank());
            assertMentions(t, "rank 2 stopped", "heartbeat", "'rank 2 never comes'");
        }
        assertTrue(System.nanoTime() - start < 20_000_000_000L, "found by the heartbeat, not the 60 s timeout");
    }

    @Test
    void ranksThatNeverStartAreNamedAtTheTimeout() throws Exception {
        List<Future<Object>> results = launch(4, List.of(0, 1), QUICK, group -> {
            Thread.sleep(500);      // rank 1 joined; it comes to its first meeting a little after rank 0 gives up
            group.meet("first");
            return "met";
        });
        Throwable first = failure(results.get(0));
        assertMentions(first, "ranks 2, 3 did not reach the start", "within 3 s", RankTimeouts.MEETING_PROPERTY);
        Throwable second = failure(results.get(1));
        assertEquals(0, assertInstanceOf(RankFailedException.class, second).rank());
        assertMentions(second, "rank 0 failed", "ranks 2, 3 did not reach the start");
    }

    @Test
    void markersAnEarlierCrashedRunLeftDoNotFoolTheStart() throws Exception {
        Path base = Files.createDirectories(dir.resolve("ranks"));
        Path old = Files.createDirectories(base.resolve("session-0ld").resolve("failed"));
        Files.writeString(old.resolve("rank-1"), "an old failure");
        Files.writeString(old.resolve("joined.1"), "");
        Files.writeString(base.resolve("join.1"), "0ld-join");
        Files.writeString(base.resolve("welcome.1"), "0ld-join 0ld");
        Files.writeString(base.resolve("alive.0"), "0ld 7");
        List<Future<Object>> results = launch(2, List.of(0, 1), QUICK, group -> {
            if (group.rank() == 0) {
                Thread.sleep(300);    // rank 1 is up first and must not take the old welcome
            }
            List<String> both = group.exchange("hello", "rank " + group.rank());
            group.leave();
            return both;
        });
        for (Future<Object> result : results) {
            assertEquals(List.of("rank 0", "rank 1"), result.get());
        }
    }

    @Test
    void impossibleTimeoutsAreRefused() {
        IllegalArgumentException e = Assertions.assertThrows(IllegalArgumentException.class,
                () -> new RankTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(1)));
        assertMentions(e, "silence PT5S", "meeting PT1S");
    }
}
