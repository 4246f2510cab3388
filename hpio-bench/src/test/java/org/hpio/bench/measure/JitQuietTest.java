package org.hpio.bench.measure;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertTrue;

class JitQuietTest {
    @Test
    void compilerTimeIsReadFromProcAndNeverGoesBack() {
        long first = JitQuiet.compilerCpuNanos();
        assertTrue(first > 0, "a JVM that ran JUnit has compiled something: " + first);
        assertTrue(JitQuiet.compilerCpuNanos() >= first);
    }

    @Test
    void warmsUpInSlicesWithinItsCap() throws Exception {
        AtomicInteger slices = new AtomicInteger();
        JitQuiet.warmUntilQuiet(0.1, nanos -> {
            slices.incrementAndGet();
            assertTrue(nanos <= 500_000_000L, "a slice is at most the cap: " + nanos);
            Thread.sleep(nanos / 1_000_000);
        });
        assertTrue(slices.get() >= 1, "at least one slice");
        assertTrue(slices.get() <= 3, "a 0.5 s cap (5 x 0.1 s) holds at most three 250 ms slices: " + slices.get());
        JitQuiet.warmUntilQuiet(0, nanos -> slices.set(-1));
        assertTrue(slices.get() >= 1, "no warm-up: no slice");
        JitQuiet.warmUntilQuiet(10, 0, nanos -> slices.set(-1));
        assertTrue(slices.get() >= 1, "no budget left: no slice");
        AtomicInteger budgeted = new AtomicInteger();
        JitQuiet.warmUntilQuiet(10, 100_000_000L, nanos -> {
            budgeted.incrementAndGet();
            assertTrue(nanos <= 100_000_000L, "a slice is at most the budget: " + nanos);
        });
        assertTrue(budgeted.get() >= 1, "a budget allows slices");
    }
}
