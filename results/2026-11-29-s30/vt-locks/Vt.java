import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import com.sun.nio.file.ExtendedOpenOption;

public class Vt { static final int GARBAGE = Integer.getInteger("garbage", 0); static volatile Object sink;
    public static void main(String[] a) throws Exception {
        Path p = Path.of(a[0]);
        int n = Integer.parseInt(a[1]);
        int seconds = Integer.parseInt(a[2]);
        long size = Files.size(p);
        LongAdder done = new LongAdder();
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            System.out.println("channel " + ch.getClass().getName());
            for (int i = 0; i < n; i++) {
                long seed = i;
                Thread.ofVirtual().start(() -> {
                    ByteBuffer b = ByteBuffer.allocateDirect(8192).alignedSlice(4096).limit(4096);
                    SplittableRandom r = new SplittableRandom(seed);
                    try {
                        while (true) {
                            b.clear();
                            ch.read(b, r.nextLong(size / 4096) * 4096); if (GARBAGE > 0) sink = new byte[GARBAGE];
                            done.increment();
                        }
                    } catch (Exception e) {
                    }
                });
            }
            long last = 0;
            for (int s = 0; s < seconds * 2; s++) {
                Thread.sleep(500);
                long now = done.sum();
                System.out.println("t=" + (s + 1) * 0.5 + " iops=" + (now - last) * 2);
                last = now;
            }
            System.exit(0);
        }
    }
}
