package org.hpio.bench.examples;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileOptions;
import org.hpio.async.AsyncFileRequest;
import org.hpio.bench.sort.ChunkSort;
import org.hpio.bench.sort.SortTimes;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Figure 5 of Bonachea's "Bulk File I/O Extensions to Java" (000 §4.2), runnable: the initial pass of an
 * external merge sort with three buffers leap-frogging, reading chunk i+1 and writing chunk i-1 while chunk i
 * is sorted. The code follows the figure line by line (including waiting on a request that was never
 * initiated, which the Done methods skip), with the instrumentation the paper left out at the end of each line
 * ({@code t = times.read(t)}: initiating a read; {@code block}: waiting in a Done method). Changes: a trailing
 * partial chunk is sorted too, and one or two whole chunks run through the same code (the figure assumes three,
 * but its branches handle one and two); only a file shorter than one chunk is sorted as a single partial chunk.
 * The three buffers are this method's; a heap-array write is copied off-heap at initiation, so a buffer is free
 * for the next read once its write is initiated, and a read's data is in its buffer once the request is seen done.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp 'hpio-cli/target/classes:hpio-cli/target/lib/*' \
 *     org.hpio.bench.examples.DoubleBufferedSort IN OUT [CHUNK_LONGS]</pre>
 */
public final class DoubleBufferedSort {
    private DoubleBufferedSort() {
    }

    /** Sorts each chunk of {@code chunkLongs} longs of {@code in} (big-endian) into {@code out}. */
    public static void sortChunks(Path in, Path out, int chunkLongs) throws IOException {
        sortChunks(in, out, chunkLongs, AsyncFileOptions.defaults(), new SortTimes());
    }

    /**
     * As {@link #sortChunks(Path, Path, int)}, both files opened with {@code options} (O_DIRECT needs chunks and a
     * file length in multiples of the direct-I/O alignment), adding where the time went to {@code times}.
     */
    public static void sortChunks(Path in, Path out, int chunkLongs, AsyncFileOptions options, SortTimes times)
            throws IOException {
        try (AsyncFile inf = new AsyncFile(in, "r", options); AsyncFile outf = new AsyncFile(out, "rw", options)) {
            long totalLongs = inf.length() / 8;
            int numchunks = (int) (totalLongs / chunkLongs);
            if (numchunks >= 1) {
                sortWholeChunks(inf, outf, chunkLongs, numchunks, times);
            }
            sortTail(inf, outf, totalLongs, (long) numchunks * chunkLongs, times);
        }
    }

    private static void sortWholeChunks(AsyncFile inf, AsyncFile outf, int chunkLongs, int numchunks, SortTimes times)
            throws IOException {
        AsyncFileRequest req1;
        AsyncFileRequest req2;
        AsyncFileRequest req3 = null;                                     // request pointers
        long[] b1 = new long[chunkLongs];                                 // allocate buffers
        long[] b2 = new long[chunkLongs];
        long[] b3 = new long[chunkLongs];

        long t = SortTimes.now();
        inf.readArray(b1).done();                                         t = times.block(t);  // blocking read(B1)
        int chunkslft = numchunks - 1;
        while (chunkslft > 1) {                                           // the "steady-state" loop
            req2 = inf.readArray(b2);                                     t = times.read(t);
            ChunkSort.sort(b1, chunkLongs);                               t = times.sort(t);
            req1 = outf.writeArray(b1);                                   t = times.write(t);
            AsyncFile.allDone(AsyncFile.TIME_INF, req2, req3);            t = times.block(t);  // wait(B2, B3)

            req3 = inf.readArray(b3);                                     t = times.read(t);
            ChunkSort.sort(b2, chunkLongs);                               t = times.sort(t);
            req2 = outf.writeArray(b2);                                   t = times.write(t);
            AsyncFile.allDone(AsyncFile.TIME_INF, req1, req3);            t = times.block(t);  // wait(B1, B3)

            long[] oldB1 = b1;                                            // do some swapping
            AsyncFileRequest oldReq1 = req1;
            long[] oldB2 = b2;
            AsyncFileRequest oldReq2 = req2;
            long[] oldB3 = b3;
            AsyncFileRequest oldReq3 = req3;
            b1 = oldB3;
            req1 = oldReq3;
            b2 = oldB1;
            req2 = oldReq1;
            b3 = oldB2;
            req3 = oldReq2;
            chunkslft -= 2;
        }
        if (chunkslft == 1) {
            req2 = inf.readArray(b2);                                     t = times.read(t);
            ChunkSort.sort(b1, chunkLongs);                               t = times.sort(t);
            req1 = outf.writeArray(b1);                                   t = times.write(t);
            req2.done();                                                  t = times.block(t);  // wait(B2)
            ChunkSort.sort(b2, chunkLongs);                               t = times.sort(t);
            req2 = outf.writeArray(b2);                                   t = times.write(t);
            AsyncFile.allDone(AsyncFile.TIME_INF, req1, req2, req3);      times.block(t);      // wait(B1, B2)
        } else {                                                          // chunkslft == 0
            ChunkSort.sort(b1, chunkLongs);                               t = times.sort(t);
            outf.writeArray(b1).done();                                   t = times.block(t);  // blocking write(B1)
            AsyncFile.allDone(AsyncFile.TIME_INF, req3);                  times.block(t);
        }
    }

    /** The longs after the last whole chunk, sorted as a chunk of their own (synchronously). */
    private static void sortTail(AsyncFile inf, AsyncFile outf, long totalLongs, long done, SortTimes times)
            throws IOException {
        long[] tail = new long[Math.toIntExact(totalLongs - done)];
        if (tail.length > 0) {
            long t = SortTimes.now();
            inf.readArray(done * 8, tail).done();                         t = times.block(t);
            ChunkSort.sort(tail, tail.length);                            t = times.sort(t);
            outf.writeArray(done * 8, tail).done();                       times.block(t);
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: DoubleBufferedSort IN OUT [CHUNK_LONGS (default 4096)]");
            System.exit(2);
        }
        int chunk = args.length > 2 ? Integer.parseInt(args[2]) : 4096;
        sortChunks(Path.of(args[0]), Path.of(args[1]), chunk);
    }
}
