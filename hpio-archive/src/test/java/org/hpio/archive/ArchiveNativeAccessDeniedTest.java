package org.hpio.archive;

import org.hpio.testing.DeniedNativeAccess;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With native access denied (the JDK's future default), the archive reader, the look-ahead loader, the mount
 * table, the file cache and the allocator work on the JDK's own calls ({@code FileChannel}, the thread-pool
 * engine, {@code java.util.zip.Inflater}): their suites pass a second time in a child JVM started with
 * {@code --illegal-native-access=deny} ({@link DeniedNativeAccess}). Zstandard and bzip2 entries, which need the
 * native libraries, are refused there with a message naming the method and the reason
 * ({@link PortableArchiveTest}).
 */
class ArchiveNativeAccessDeniedTest {
    static final List<String> CLASSES = List.of(
            "org.hpio.archive.PortableArchiveTest",
            "org.hpio.archive.ArchiveBuilderTest",
            "org.hpio.archive.ArchiveBuilderPropertyTest",
            "org.hpio.archive.ArchiveLoaderFallbackTest",
            "org.hpio.archive.CompressedEntryContractTest",
            "org.hpio.archive.PythonTraceArchiveTest",
            "org.hpio.archive.ArchiveLoadTest",
            "org.hpio.archive.ArchiveReaderTest",
            "org.hpio.archive.ArchiveLoaderTest",
            "org.hpio.archive.ArchiveLoaderReuseTest",
            "org.hpio.archive.HostileArchiveTest",
            "org.hpio.archive.InteropTest",
            "org.hpio.archive.MountTableTest",
            "org.hpio.archive.ToleratedOdditiesTest",
            "org.hpio.archive.WholeEntryDecoderTest",
            "org.hpio.archive.alloc.AlignedAllocatorTest",
            "org.hpio.archive.cache.FileCacheTest",
            "org.hpio.archive.cache.LandlordTest",
            "org.hpio.archive.order.SeekCounterTest",
            "org.hpio.archive.order.TraceOrderingTest");

    @Test
    void withNativeAccessDeniedTheArchiveSuitesPassOnTheJdksCalls() throws Exception {
        DeniedNativeAccess.Result r = DeniedNativeAccess.run(CLASSES);
        System.out.println("native access denied: " + r.statusLines());
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stdout().contains("engine=threads"), r.describe());
        assertEquals(0, r.failed(), r.describe());
        assertTrue(r.succeeded() >= 100, "a representative part of the suite ran: " + r.statusLines());
    }
}
