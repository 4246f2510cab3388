import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.*;
import org.hpio.nio.HpioChannels;

/** Wr FILE SIZE ROUNDS: a platform thread's positional writes of SIZE bytes (heap buffer) into a warm 64 MiB file, JDK vs hpio alternated. */
public class Wr {
    public static void main(String[] a) throws Exception {
        Path p = Path.of(a[0]); int size = Integer.parseInt(a[1]); int rounds = Integer.parseInt(a[2]);
        long fileSize = 64L << 20;
        try (FileChannel init = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            init.write(ByteBuffer.allocate(1), fileSize - 1);
        }
        FileChannel jdk = FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.READ);
        FileChannel hpio = HpioChannels.open(p, StandardOpenOption.WRITE, StandardOpenOption.READ);
        ByteBuffer b = ByteBuffer.allocate(size);
        for (int i = 0; i < size; i++) b.put(i, (byte) i);
        SplittableRandom r = new SplittableRandom(1);
        double[] j = new double[rounds], h = new double[rounds];
        for (int k = 0; k < rounds + 2; k++) {
            for (int which = 0; which < 2; which++) {
                FileChannel ch = which == 0 ? jdk : hpio;
                int n = 100_000;
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    b.clear();
                    if (ch.write(b, r.nextLong(fileSize / size - 1) * size) != size) throw new AssertionError();
                }
                double ns = (System.nanoTime() - t0) / (double) n;
                if (k >= 2) { if (which == 0) j[k - 2] = ns; else h[k - 2] = ns; }
            }
        }
        Arrays.sort(j); Arrays.sort(h);
        System.out.printf("%d B writes: jdk %.2f us, hpio %.2f us (medians of %d), hpio/jdk time %.2f  [%s]%n", size, j[rounds / 2] / 1e3, h[rounds / 2] / 1e3, rounds, h[rounds / 2] / j[rounds / 2], hpio);
        System.exit(0);
    }
}
