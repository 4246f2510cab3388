package org.hpio.bench.bulk;

import org.hpio.bench.bulk.SharedFileRun.Plan;
import org.hpio.bench.data.DataFiles;
import org.hpio.bench.data.Elements;
import org.hpio.bench.data.FileChecksum;
import org.hpio.bench.data.TestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmarks' own checks must catch wrong output: a figure is never reported for wrong data. */
class BenchChecksTest {
    @TempDir
    Path dir;

    /** An approach that does the real I/O and then spoils one element. */
    private static Approach spoiling(Approach real) {
        return new Approach() {
            public String name() { return "spoiled-" + real.name(); }
            public String description() { return "spoils one element"; }
            public ByteOrder fileOrder() { return real.fileOrder(); }

            public void read(Path file, long position, Object array, int offset, int count) throws IOException {
                real.read(file, position, array, offset, count);
                ((int[]) array)[offset + count / 2] ^= 1;
            }

            public void write(Path file, long position, Object array, int offset, int count) throws IOException {
                int[] copy = ((int[]) array).clone();
                copy[offset + count / 2] ^= 1;
                real.write(file, position, copy, offset, count);
            }
        };
    }

    @Test
    void everyApproachReadsAndWritesTheGeneratorsData() throws Exception {
        long count = 50_000;
        for (Approach approach : Approaches.all()) {
            Path input = dir.resolve("in-" + approach.name());
            DataFiles.create(input, Elements.INT, count, approach.fileOrder());
            Plan plan = new Plan(input, Elements.INT, count, 3, approach.fileOrder());
            Object[] buffers = {new int[plan.length(0)], new int[plan.length(1)], new int[plan.length(2)]};
            long expected = TestData.expectedChecksum(0, count, 4);
            SharedFileRun.inThreads(approach, SharedFileRun.Op.READ, plan, buffers, expected);

            Path output = dir.resolve("out-" + approach.name());
            Plan writePlan = new Plan(output, Elements.INT, count, 3, approach.fileOrder());
            double seconds = new Trials(1).write(BulkConfig.java(approach), writePlan, BulkConfig.Workers.THREADS, buffers);
            assertTrue(seconds > 0, approach.name());
        }
    }

    @Test
    void aReadOfWrongDataIsAnError() throws Exception {
        long count = 10_000;
        Path input = dir.resolve("in");
        DataFiles.create(input, Elements.INT, count, ByteOrder.BIG_ENDIAN);
        Plan plan = new Plan(input, Elements.INT, count, 2, ByteOrder.BIG_ENDIAN);
        Object[] buffers = {new int[plan.length(0)], new int[plan.length(1)]};
        Approach bad = spoiling(Approaches.byName("bulkraf"));
        IOException e = assertThrows(IOException.class, () -> SharedFileRun.inThreads(bad, SharedFileRun.Op.READ, plan,
                buffers, TestData.expectedChecksum(0, count, 4)));
        assertTrue(e.getMessage().contains("read wrong data"), e.getMessage());
    }

    @Test
    void aWriteOfWrongDataIsAnError() {
        long count = 10_000;
        Plan plan = new Plan(dir.resolve("out"), Elements.INT, count, 2, ByteOrder.BIG_ENDIAN);
        Object[] buffers = {new int[plan.length(0)], new int[plan.length(1)]};
        BulkConfig bad = BulkConfig.java(spoiling(Approaches.byName("nio")));
        IOException e = assertThrows(IOException.class,
                () -> new Trials(1).write(bad, plan, BulkConfig.Workers.THREADS, buffers));
        assertTrue(e.getMessage().contains("wrote wrong data"), e.getMessage());
        assertTrue(e.getMessage().contains("worker 0's block (elements 0..4999), worker 1's block (elements 5000..9999)"),
                e.getMessage());
    }

    @Test
    void theFileChecksumSeesTheByteOrder() throws Exception {
        Path file = dir.resolve("be");
        DataFiles.create(file, Elements.LONG, 1000, ByteOrder.BIG_ENDIAN);
        long expected = TestData.expectedChecksum(0, 1000, 8);
        assertEquals(expected, FileChecksum.of(file, Elements.LONG, ByteOrder.BIG_ENDIAN, 0, 1000));
        assertThrows(IOException.class, () -> FileChecksum.verify("test", file, Elements.LONG,
                ByteOrder.LITTLE_ENDIAN, 0, 1000, expected));
    }

    @Test
    void blocksCoverTheFileExactlyOnce() {
        Plan plan = new Plan(dir, Elements.INT, 1001, 4, ByteOrder.BIG_ENDIAN);
        long next = 0;
        for (int i = 0; i < 4; i++) {
            assertEquals(next, plan.first(i));
            next += plan.length(i);
        }
        assertEquals(1001, next);
    }
}
