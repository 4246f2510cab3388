import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import com.sun.nio.file.ExtendedOpenOption;

/** Bytes allocated per FileChannel read from N virtual threads (O_DIRECT 4 KiB random), after a warm-up. */
public class Alloc {
    public static void main(String[] a) throws Exception {
        Path p = Path.of(a[0]);
        int n = Integer.parseInt(a[1]);
        int seconds = Integer.parseInt(a[2]);
        long size = Files.size(p);
        LongAdder done = new LongAdder();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            System.out.println("channel " + ch.getClass().getName());
            for (int i = 0; i < n; i++) {
                long seed = i;
                Thread.ofVirtual().start(() -> {
                    ByteBuffer own = ByteBuffer.allocateDirect(8192).alignedSlice(4096).limit(4096);
                    SplittableRandom r = new SplittableRandom(seed);
                    try {
                        while (true) {
                            own.clear();
                            ch.read(own, r.nextLong(size / 4096) * 4096);
                            done.increment();
                        }
                    } catch (Exception e) {
                    }
                });
            }
            Thread.sleep(3000);
            for (int s = 0; s < seconds; s++) {
                long b0 = mx.getTotalThreadAllocatedBytes();
                long d0 = done.sum();
                long c0 = ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(g -> g.getCollectionCount()).sum();
                Thread.sleep(1000);
                long b1 = mx.getTotalThreadAllocatedBytes();
                long d1 = done.sum();
                long c1 = ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(g -> g.getCollectionCount()).sum();
                System.out.printf("iops %d  bytes/read %.0f  gcs %d%n", d1 - d0, (double) (b1 - b0) / (d1 - d0), c1 - c0);
            }
            System.exit(0);
        }
    }
}
