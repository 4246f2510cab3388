package org.hpio.archive;

import org.hpio.testing.DeniedNativeAccess;
import org.junit.jupiter.api.Test;

import java.util.List;

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
            "org.hpio.archive.cache.policy.LandlordTest",
            "org.hpio.archive.simulation.SeekCounterTest",
            "org.hpio.archive.order.TraceOrderingTest");

    @Test
    void withNativeAccessDeniedTheArchiveSuitesPassOnTheJdksCalls() throws Exception {
        DeniedNativeAccess.run(CLASSES).assertPassed("native access denied", 100);
    }
}
