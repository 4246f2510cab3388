package org.hpio.bench.examples;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Figure 5 of Bonachea's "Bulk File I/O Extensions to Java" (000 §4.2), runnable: the initial pass of an
 * external merge sort with three buffers leap-frogging, reading chunk i+1 and writing chunk i-1 while chunk i
 * is sorted. The code follows the figure line by line (including waiting on a request that was never
 * initiated, which the Done methods skip); the only change is that a trailing partial chunk is sorted too.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp 'hpio-cli/target/classes:hpio-cli/target/lib/*' \
 *     org.hpio.bench.examples.DoubleBufferedSort IN OUT [CHUNK_LONGS]</pre>
 */
public final class DoubleBufferedSort {
    private DoubleBufferedSort() {
    }

    /** Sorts each chunk of {@code chunkLongs} longs of {@code in} (big-endian) into {@code out}. */
    public static void sortChunks(Path in, Path out, int chunkLongs) throws IOException {
        try (AsyncFile inf = new AsyncFile(in, "r"); AsyncFile outf = new AsyncFile(out, "rw")) {
            long totalLongs = inf.length() / 8;
            int numchunks = (int) (totalLongs / chunkLongs);
            if (numchunks < 3) {
                sortSmall(inf, outf, totalLongs);
                return;
            }
            AsyncFileRequest req1;
            AsyncFileRequest req2;
            AsyncFileRequest req3 = null;                     // request pointers
            long[] b1 = new long[chunkLongs];                 // allocate buffers
            long[] b2 = new long[chunkLongs];
            long[] b3 = new long[chunkLongs];

            inf.readArray(b1).done();                         // blocking read(B1)
            int chunkslft = numchunks - 1;
            while (chunkslft > 1) {                           // the "steady-state" loop
                req2 = inf.readArray(b2);
                Arrays.sort(b1);
                req1 = outf.writeArray(b1);
                AsyncFile.allDone(AsyncFile.TIME_INF, req2, req3);   // wait(B2, B3)

                req3 = inf.readArray(b3);
                Arrays.sort(b2);
                req2 = outf.writeArray(b2);
                AsyncFile.allDone(AsyncFile.TIME_INF, req1, req3);   // wait(B1, B3)

                long[] oldB1 = b1;                            // do some swapping
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
                req2 = inf.readArray(b2);
                Arrays.sort(b1);
                req1 = outf.writeArray(b1);
                req2.done();                                  // wait(B2)
                Arrays.sort(b2);
                req2 = outf.writeArray(b2);
                AsyncFile.allDone(AsyncFile.TIME_INF, req1, req2, req3);   // wait(B1, B2)
            } else {                                          // chunkslft == 0
                Arrays.sort(b1);
                outf.writeArray(b1).done();                   // blocking write(B1)
                AsyncFile.allDone(AsyncFile.TIME_INF, req3);
            }
            sortTail(inf, outf, totalLongs, (long) numchunks * chunkLongs);
        }
    }

    /** Fewer than three whole chunks: one synchronous pass (the figure assumes at least three). */
    private static void sortSmall(AsyncFile inf, AsyncFile outf, long totalLongs) throws IOException {
        long[] all = new long[Math.toIntExact(totalLongs)];
        inf.readArray(all).done();
        Arrays.sort(all);
        outf.writeArray(all).done();
    }

    /** The longs after the last whole chunk, sorted as a chunk of their own. */
    private static void sortTail(AsyncFile inf, AsyncFile outf, long totalLongs, long done) throws IOException {
        long[] tail = new long[Math.toIntExact(totalLongs - done)];
        if (tail.length > 0) {
            inf.readArray(done * 8, tail).done();
            Arrays.sort(tail);
            outf.writeArray(done * 8, tail).done();
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
