package org.hpio.bench.measure;

import org.hpio.bench.report.Progress;
import org.hpio.bench.report.SuiteReport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The measuring loop every suite shares: rounds, warm-ups, failures, medians. */
class MeasureTest {
    @Test
    void quantilesTakeTheNearestRankAndLeaveTheValuesAlone() {
        long[] reads = {9, 1, 1, 85, 1207, 1, 1, 1, 2, 40};
        assertEquals(1, Stats.quantile(reads, 0.1));
        assertEquals(1, Stats.quantile(reads, 0.5));
        assertEquals(85, Stats.quantile(reads, 0.9));
        assertEquals(1207, Stats.quantile(reads, 1.0));
        assertEquals(9, reads[0], "the caller's array is not sorted");
        assertEquals(7, Stats.quantile(new long[] {7}, 0.1));
        assertThrows(IllegalArgumentException.class, () -> Stats.quantile(new long[0], 0.5));
        assertThrows(IllegalArgumentException.class, () -> Stats.quantile(reads, 0));
    }

    @Test
    void warmUpRoundsComeFirstAndAreDropped() throws InterruptedException {
        List<String> ran = new ArrayList<>();
        List<String> measured = Rounds.<String>of(2, c -> c).warmUpRounds(1)
                .run(List.of("a", "b"), (c, warmUp) -> {
                    ran.add(c + (warmUp ? "-warm" : ""));
                    return c;
                }, new SuiteReport("test", ""), Progress.silent());
        assertEquals(List.of("a-warm", "b-warm", "a", "b", "a", "b"), ran);
        assertEquals(List.of("a", "b", "a", "b"), measured);
        assertEquals(6, Rounds.<String>of(2, c -> c).warmUpRounds(1).steps(2));
    }

    @Test
    void aFailureIsReportedAndOptionallyDropsTheConfiguration() throws InterruptedException {
        for (boolean drop : new boolean[]{false, true}) {
            SuiteReport report = new SuiteReport("test", "");
            List<String> ran = new ArrayList<>();
            Rounds<String> rounds = Rounds.of(3, c -> "row " + c);
            if (drop) {
                rounds.droppingFailed();
            }
            List<String> measured = rounds.run(List.of("a", "bad"), (c, warmUp) -> {
                ran.add(c);
                if (c.equals("bad")) {
                    throw new IOException("wrong output");
                }
                return c;
            }, report, Progress.silent());
            assertEquals(List.of("a", "a", "a"), measured);
            assertEquals(drop ? 4 : 6, ran.size());
            assertEquals(drop ? 1 : 3, report.failures().size());
            assertEquals(true, report.failures().getFirst().contains("row bad"), report.failures().getFirst());
        }
    }

    @Test
    void repeatsTakeTheMedianOfTheTimedRuns() {
        double[] next = {100, 3, 1, 2, 10};
        int[] i = {0};
        assertEquals(2.5, Repeats.median(1, 4, warmUp -> next[i[0]++]));
        assertEquals(5, i[0]);
    }

    @Test
    void warmUpRunsAtLeastMinAndAtMostMax() {
        int[] n = {0};
        new WarmUp(3, 10, 0).repeat(() -> n[0]++);
        assertEquals(3, n[0]);
        n[0] = 0;
        new WarmUp(0, 10, Long.MAX_VALUE).repeat(() -> n[0]++);
        assertEquals(10, n[0]);
    }
}
