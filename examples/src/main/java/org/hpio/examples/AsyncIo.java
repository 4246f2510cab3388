package org.hpio.examples;

import org.hpio.Hpio;
import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileOptions;
import org.hpio.async.AsyncFileRequest;
import org.hpio.bulk.BulkRandomAccessFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

/** The README's asynchronous bulk I/O (org.hpio.async): Figure 5's overlap of reading, sorting and writing. */
public final class AsyncIo {
    private AsyncIo() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Scratch.directory("async");
        Path input = dir.resolve("infile.data");
        Path path = dir.resolve("direct.data");
        long[] unsorted = new Random(19).longs(8192).toArray();
        try (var file = new BulkRandomAccessFile(input, "rw")) {
            file.writeArray(unsorted);
        }
        String inName = input.toString();
        String outName = dir.resolve("outfile.data").toString();
        // README: async
        // Figure 5 of the bulk I/O paper (runnable: org.hpio.bench.examples.DoubleBufferedSort): read the next
        // chunk and write the last while this one is sorted.
        AsyncFile inf = new AsyncFile(inName, "r");
        AsyncFile outf = new AsyncFile(outName, "rw");
        long[] b1 = new long[4096], b2 = new long[4096];
        inf.readArray(b1).done();                              // blocking read
        AsyncFileRequest r2 = inf.readArray(b2);               // the file pointer advanced at initiation
        Arrays.sort(b1);
        AsyncFileRequest w1 = outf.writeArray(b1);             // b1 is copied off-heap: free to reuse now
        AsyncFile.allDone(AsyncFile.TIME_INF, r2, w1);         // b2 holds its data once r2 is seen done
        // Options: O_DIRECT (where hpio's native calls are on), DSYNC/SYNC, the in-flight bound, fail-fast, byte order.
        var options = AsyncFileOptions.defaults().withDirect(Hpio.nativeCalls()).withMaxInFlight(32);
        var direct = new AsyncFile(path, "rw", options);
        outf.writeArrayDurably(0, b1, 0, b1.length, false).done();   // a write linked to fdatasync
        outf.force(true).toCompletableFuture().join();               // a force as a request, composed
        // README: end
        direct.close();
        inf.close();
        outf.close();
        check(unsorted, b1, b2, Path.of(outName));
        System.out.println("AsyncIo: " + (b1.length + b2.length) + " longs read, " + b1.length + " sorted and written");
    }

    private static void check(long[] unsorted, long[] b1, long[] b2, Path out) throws IOException {
        long[] first = Arrays.copyOfRange(unsorted, 0, 4096);
        Arrays.sort(first);
        Check.that(Arrays.equals(first, b1), "the first chunk, sorted");
        Check.that(Arrays.equals(Arrays.copyOfRange(unsorted, 4096, 8192), b2), "the second chunk, as read");
        long[] written = new long[4096];
        try (var file = new BulkRandomAccessFile(out, "r")) {
            file.readArray(written);
        }
        Check.that(Arrays.equals(first, written), "the sorted chunk in the output file");
    }
}
