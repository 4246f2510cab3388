package org.hpio.nio;

import org.hpio.internal.io.EngineConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One call with a buffer of more than 1 GiB moves what the JDK's channel moves in one call: everything up to
 * Linux's limit per call (2 GiB less a page). A caller that writes such a buffer once and ignores the count
 * loses nothing on either channel. Run on the JDK's channel and on hpio's on both engines (not in the contract
 * suites, which run several times over: each case here moves gigabytes). A direct buffer, shared by the cases:
 * the tests' JVM has 2 GiB of direct memory, and a heap buffer would need as much again for staging (the JDK's
 * channel too needs a temporary direct buffer of its size).
 */
class LargeTransferTest {
    /** Over 1 GiB, which is all hpio's channel moved per call before. */
    private static final int BYTES = (1 << 30) + (1 << 28);

    /** One buffer for every case (allocated once; given back to the collector at the end). */
    private static MemorySegment buffer;

    @TempDir
    Path dir;

    @BeforeAll
    static void allocate() {
        buffer = Arena.ofAuto().allocate(BYTES, 4096);
    }

    @AfterAll
    static void release() {
        buffer = null;
    }

    @ParameterizedTest
    @EnumSource(value = Implementation.class, names = {"JDK", "HPIO_URING", "HPIO_THREADS"})
    void oneWriteOfADirectBufferOverOneGibibyteWritesItAllAndOneReadReadsItBack(Implementation implementation)
            throws Exception {
        Path file = dir.resolve("large.bin");
        MemorySegment data = buffer;
        fillWithOffsets(data);
        try (Implementation.Running running = implementation.start(EngineConfig.defaults());
             FileChannel channel = running.opener().open(file, StandardOpenOption.CREATE_NEW,
                     StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer out = data.asByteBuffer();
            assertEquals(BYTES, channel.write(out), "one write");
            assertEquals(BYTES, out.position());
            assertEquals(BYTES, channel.size());
            assertEquals(BYTES, channel.position());

            MemorySegment back = data.fill((byte) 0);
            ByteBuffer in = back.asByteBuffer();
            long read = channel.read(in, 0);
            assertTrue(read > 1 << 30, "one read moved only " + read + " bytes");
            assertEquals(read, in.position());
            assertOffsets(back, read);
        }
        assertEquals(BYTES, Files.size(file));
    }

    /** Every 8 bytes hold their own offset. */
    private static void fillWithOffsets(MemorySegment segment) {
        for (long at = 0; at < segment.byteSize(); at += 8) {
            segment.set(JAVA_LONG_UNALIGNED, at, at);
        }
    }

    private static void assertOffsets(MemorySegment segment, long upTo) {
        for (long at = 0; at + 8 <= upTo; at += 8) {
            if (segment.get(JAVA_LONG_UNALIGNED, at) != at) {
                assertEquals(at, segment.get(JAVA_LONG_UNALIGNED, at), "the 8 bytes at " + at);
            }
        }
    }
}
