package org.hpio.bench.sort;

import org.hpio.async.AsyncFileOptions;
import org.hpio.bench.examples.DoubleBufferedSort;
import org.hpio.bench.machine.CProgram;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One configuration of the sort benchmark: 000 Table 1's six, what a Java developer writes today (nio, mmap),
 * C (Table 2's last row), and the O_DIRECT rows. {@link #run} sorts each chunk of {@code in} into a new
 * {@code out} and returns where the time went; the caller checks the output.
 *
 * @param name        as the paper names it, "-direct" for O_DIRECT
 * @param description what it is, for the report
 * @param perLong     one library call (and system call) per long: slow, capped by size
 * @param direct      O_DIRECT: needs chunk and file sizes in multiples of 4 KiB
 * @param runner      the run itself
 */
record SortConfig(String name, String description, boolean perLong, boolean direct, Runner runner) {
    /** Runs the initial pass with chunks of {@code chunkLongs} longs. */
    @FunctionalInterface
    interface Runner {
        SortTimes.Breakdown run(Path in, Path out, int chunkLongs) throws IOException;
    }

    SortTimes.Breakdown run(Path in, Path out, int chunkLongs) throws IOException {
        return runner.run(in, out, chunkLongs);
    }

    /** Every Java configuration, buffered ones first, then the O_DIRECT ones. */
    static List<SortConfig> java() {
        return List.of(
                sync("raf", "RandomAccessFile.readLong/writeLong", true, JavaChunkFiles::raf),
                sync("ds", "DataInputStream(FileInputStream), DataOutputStream(FileOutputStream)", true, JavaChunkFiles::ds),
                sync("dsb", "Data streams over Buffered streams (default 8 KiB buffer)", false, JavaChunkFiles::dsb),
                sync("bulkraf", "BulkRandomAccessFile.readArray/writeArray", false, JavaChunkFiles::bulkRaf),
                sync("bulkds", "BulkDataInputStream(FileInputStream), BulkDataOutputStream(FileOutputStream)", false,
                        JavaChunkFiles::bulkDs),
                async("async", "AsyncFile, the double-buffered algorithm of Figure 5 (three buffers)",
                        AsyncFileOptions.defaults(), false),
                sync("nio", "FileChannel + direct ByteBuffer of a chunk + asLongBuffer()", false, JavaChunkFiles::nio),
                sync("mmap", "FileChannel.map of both files + MemorySegment.copy", false, JavaChunkFiles::mmap),
                async("async-direct", "async with O_DIRECT", AsyncFileOptions.defaults().withDirect(true), true),
                new SortConfig("bulk-direct", "O_DIRECT, synchronous: AsyncFile waiting on each request at once (the "
                        + "bulk classes have no O_DIRECT)", false, true,
                        (in, out, chunk) -> SyncChunkSort.run(JavaChunkFiles::bulkDirect, in, out, chunk)));
    }

    /** The Java configurations, then C and C with O_DIRECT when the C program could be built. */
    static List<SortConfig> all(Optional<CProgram> c) {
        List<SortConfig> configs = new ArrayList<>(java());
        c.ifPresent(program -> {
            configs.add(configs.indexOf(byName(configs, "async-direct")), CSort.config(program, false));
            configs.add(CSort.config(program, true));
        });
        return configs;
    }

    static List<String> names() {
        List<String> names = new ArrayList<>(java().stream().map(SortConfig::name).toList());
        names.addAll(List.of("c", "c-direct"));
        return names;
    }

    private static SortConfig byName(List<SortConfig> configs, String name) {
        return configs.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    private static SortConfig sync(String name, String description, boolean perLong, ChunkFiles.Opener opener) {
        return new SortConfig(name, description, perLong, false,
                (in, out, chunk) -> SyncChunkSort.run(opener, in, out, chunk));
    }

    private static SortConfig async(String name, String description, AsyncFileOptions options, boolean direct) {
        return new SortConfig(name, description, false, direct, (in, out, chunk) -> {
            SortTimes times = new SortTimes();
            long start = SortTimes.now();
            DoubleBufferedSort.sortChunks(in, out, chunk, options, times);
            return times.breakdown(SortTimes.now() - start);
        });
    }
}
