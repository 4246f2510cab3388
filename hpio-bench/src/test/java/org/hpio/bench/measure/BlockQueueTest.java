package org.hpio.bench.measure;

import com.sun.nio.file.ExtendedOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static java.nio.file.StandardOpenOption.READ;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class BlockQueueTest {
    private static final String PROC_STAT = "cpu  1 2 3 4\nintr 1000 0 5 7\nctxt 9\n";

    @TempDir
    Path dir;

    @Test
    void devNumbersDecodeAsGlibcDoes() {
        assertEquals(254, BlockQueue.major((254L << 8) | 3));
        assertEquals(3, BlockQueue.minor((254L << 8) | 3));
        long big = (0x12345L & 0xff) | ((0x12345L & ~0xffL) << 12) | ((259L & 0xfff) << 8) | ((259L & ~0xfffL) << 32);
        assertEquals(259, BlockQueue.major(big));
        assertEquals(0x12345, BlockQueue.minor(big));
    }

    @Test
    void figuresAreTheCountersDifferences() {
        BlockQueue.Snapshot a = BlockQueue.Snapshot.parse(0,
                "  100 0 800 50 0 0 0 0 7 40 300 0 0 0 0\n", PROC_STAT);
        BlockQueue.Snapshot b = BlockQueue.Snapshot.parse(2_000_000_000L,
                "  300 1 2400 450 0 0 0 0 9 2040 4300 0 0 0 0\n", PROC_STAT.replace("intr 1000", "intr 1500"));
        Map<String, Object> figures = new HashMap<>();
        a.putFigures(b, figures);
        assertEquals(100.5, figures.get("block-reads-per-s"), "200 reads and one merged into another, in 2 s");
        assertEquals(2000.0, figures.get("block-read-us"), "400 ms over 200 reads");
        assertEquals(2.0, figures.get("block-queue"), "4,000 request-milliseconds in 2,000 ms");
        assertEquals(2.5, figures.get("interrupts-per-io"), "500 interrupts over 200 reads");
        Map<String, Object> none = new HashMap<>();
        a.putFigures(a, none);
        assertTrue(none.isEmpty(), "no read: no figure");
        a.putFigures(null, none);
        assertTrue(none.isEmpty(), "no later snapshot: no figure");
        assertThrows(IllegalArgumentException.class, () -> BlockQueue.Snapshot.parse(0, "1 2 3", PROC_STAT));
    }

    @Test
    void theSchedulerInUseIsTheBracketedOne() {
        assertEquals("mq-deadline", BlockQueue.inUse("none [mq-deadline] kyber bfq"));
        assertEquals("none", BlockQueue.inUse("[none] mq-deadline"));
        assertEquals("none", BlockQueue.inUse("none\n"));
    }

    @Test
    void aDirectReadOfAFileOnADiskIsCountedOnItsDevice() throws IOException {
        Path file = Files.write(dir.resolve("f"), new byte[1 << 20]);
        Optional<BlockQueue> device = BlockQueue.of(file);
        assumeTrue(device.isPresent(), "the temporary directory has no block device of its own (tmpfs?)");
        BlockQueue.Snapshot before = device.get().snapshot();
        try (FileChannel ch = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(2 << 16).alignedSlice(4096).limit(4096);
            for (int i = 0; i < 16; i++) {
                ch.read(buffer.clear(), (long) i * 4096);
            }
        } catch (UnsupportedOperationException | IOException e) {
            assumeTrue(false, "O_DIRECT refused here: " + e);
        }
        BlockQueue.Snapshot after = device.get().snapshot();
        assertTrue(after.reads() - before.reads() >= 16, "16 direct reads reached the device: " + before + " " + after);
        assertTrue(after.interrupts() >= before.interrupts());
        String words = device.get().describe();
        assertTrue(words.matches("[^,]+(, I/O scheduler [\\w-]+)?(, \\d+ requests)?"), words);
        assertTrue(BlockQueue.of(Path.of("/proc/self/stat")).isEmpty(), "procfs has no block device");
    }
}
