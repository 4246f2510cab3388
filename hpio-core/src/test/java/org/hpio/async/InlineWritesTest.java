package org.hpio.async;

import org.hpio.internal.sys.NativeAccess;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which writes {@link InlineWrites} admits, and its back-off after slow ones (on a test clock: no timing). */
class InlineWritesTest {
    @TempDir
    Path dir;
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final InlineWrites policy = new InlineWrites(16 << 10, now::get);

    private long maxBytesOf(String name, int flags) throws Exception {
        Path path = name.startsWith("/") ? Path.of(name) : dir.resolve(name);
        try (NativeFile file = NativeFile.open(path, flags | (name.startsWith("/") ? 0 : Syscalls.O_CREAT))) {
            return InlineWrites.forFile(file, path).maxBytes();
        }
    }

    @Test
    void onlyABufferedRegularFileWritesInline() throws Exception {
        assertEquals(InlineWrites.DEFAULT_MAX_BYTES, maxBytesOf("plain", Syscalls.O_RDWR));
        assertEquals(0, maxBytesOf("dsync", Syscalls.O_RDWR | Syscalls.O_DSYNC));
        assertEquals(0, maxBytesOf("sync", Syscalls.O_RDWR | Syscalls.O_SYNC));
        if (NativeAccess.available()) {   // else O_DIRECT cannot be opened at all
            assertEquals(0, maxBytesOf("direct", Syscalls.O_RDWR | Syscalls.O_DIRECT));
        }
        assertEquals(0, maxBytesOf("/dev/null", Syscalls.O_RDWR), "not a regular file: its write may block");
    }

    @Test
    void smallWritesWithNothingElseInFlight() {
        assertTrue(policy.admits(4096, false));
        assertTrue(policy.admits(16 << 10, false));
        assertFalse(policy.admits((16 << 10) + 1, false), "larger: to the engine");
        assertFalse(policy.admits(4096, true), "an earlier request in flight: to the engine, behind it");
        assertFalse(policy.admits(0, false), "nothing to write: the empty request is done without I/O");
        assertFalse(new InlineWrites(0, now::get).admits(1, false), "turned off");
    }

    @Test
    void aSlowWriteBacksOffForLongerEachTimeAndAFastOneStartsOver() {
        policy.took(InlineWrites.SLOW_NANOS + 1);
        assertFalse(policy.admits(4096, false), "backing off");
        now.addAndGet(InlineWrites.MIN_BACK_OFF_NANOS);
        assertTrue(policy.admits(4096, false), "the first back-off is over");
        policy.took(InlineWrites.SLOW_NANOS + 1);                 // slow again: twice as long
        now.addAndGet(InlineWrites.MIN_BACK_OFF_NANOS);
        assertFalse(policy.admits(4096, false));
        now.addAndGet(InlineWrites.MIN_BACK_OFF_NANOS);
        assertTrue(policy.admits(4096, false));
        policy.took(InlineWrites.SLOW_NANOS);                     // fast: the next back-off is the shortest again
        policy.took(InlineWrites.SLOW_NANOS + 1);
        now.addAndGet(InlineWrites.MIN_BACK_OFF_NANOS);
        assertTrue(policy.admits(4096, false));
    }

    @Test
    void backOffsStopGrowingAtTheirBound() {
        for (int i = 0; i < 40; i++) {
            policy.took(InlineWrites.SLOW_NANOS + 1);
            now.addAndGet(InlineWrites.MAX_BACK_OFF_NANOS);
            assertTrue(policy.admits(4096, false), "never longer than the bound, after " + i + " slow writes");
        }
    }
}
