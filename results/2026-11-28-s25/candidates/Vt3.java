import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.atomic.LongAdder;
import com.sun.nio.file.ExtendedOpenOption;
import org.hpio.internal.io.*;

public class Vt3 {
    public static void main(String[] a) throws Exception {
        Path p = Path.of(a[0]); int n = Integer.parseInt(a[1]); int seconds = Integer.parseInt(a[2]);
        long size = Files.size(p);
        LongAdder done = new LongAdder();
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            for (int i = 0; i < n; i++) {
                long seed = i;
                Thread.ofVirtual().start(() -> {
                    ByteBuffer own = ByteBuffer.allocateDirect(8192).alignedSlice(4096).limit(4096);
                    SplittableRandom r = new SplittableRandom(seed);
                    try { while (true) { own.clear(); ch.read(own, r.nextLong(size / 4096) * 4096); done.increment(); } } catch (Exception e) { }
                });
            }
            Thread.sleep(2000);
            List<IoEngine> rings = IoEngines.sharedRings();
            long[] hist = new long[600];
            long t0 = System.nanoTime(); long d0 = done.sum(); long samples = 0;
            while (System.nanoTime() - t0 < seconds * 1_000_000_000L) {
                int f = 0; for (IoEngine e : rings) f += e.inFlight();
                hist[Math.min(599, f)]++; samples++;
                long w = System.nanoTime(); while (System.nanoTime() - w < 20_000) Thread.onSpinWait();
            }
            long iops = (done.sum() - d0) / seconds;
            long below85 = 0, below128 = 0, sum = 0; for (int i = 0; i < 600; i++) { if (i < 85) below85 += hist[i]; if (i < 128) below128 += hist[i]; sum += (long) i * hist[i]; }
            System.out.printf("n=%d iops=%d samples=%d mean=%.1f <85=%.2f%% <128=%.2f%%%n", n, iops, samples, (double) sum / samples, 100.0 * below85 / samples, 100.0 * below128 / samples);
            System.exit(0);
        }
    }
}
