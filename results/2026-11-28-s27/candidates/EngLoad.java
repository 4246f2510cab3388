import java.nio.file.Path;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.hpio.bench.engine.EngineBaseline;

/** The engine driver at a depth, with N virtual threads woken in batches beside it (a reader-like scheduling load). */
public class EngLoad {
    public static void main(String[] a) throws Exception {
        Path p = Path.of(a[0]);
        int depth = Integer.parseInt(a[1]);
        int n = Integer.parseInt(a[2]);
        int rate = Integer.parseInt(a[3]);   // wake-ups a second
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder woken = new LongAdder();
        ConcurrentLinkedQueue<Thread> ready = new ConcurrentLinkedQueue<>();
        if (n > 0) {
            for (int i = 0; i < n; i++) {
                Thread.ofVirtual().start(() -> {
                    long x = 0;
                    while (!stop.get()) {
                        ready.add(Thread.currentThread());
                        LockSupport.park();
                        for (int k = 0; k < 200; k++) x += k * 31;   // a reader's bit of work
                        woken.increment();
                    }
                    if (x == 42) System.out.println();
                });
            }
            Thread waker = Thread.ofPlatform().daemon().start(() -> {
                long interval = 1_000_000_000L / Math.max(1, rate / 40);   // batches of 40
                while (!stop.get()) {
                    for (int k = 0; k < 40; k++) {
                        Thread t = ready.poll();
                        if (t != null) LockSupport.unpark(t);
                    }
                    LockSupport.parkNanos(interval);
                }
            });
        }
        var f = EngineBaseline.uringRandomReads(p, 256L << 20, depth, Double.parseDouble(a[4]), 1.0);
        stop.set(true);
        System.out.printf("iops %.0f cpu %.2f woken/s %.0f%n", f.iops(), f.cpuMicrosPerIo(), woken.sum() / (Double.parseDouble(a[4]) + 1.0));
        System.exit(0);
    }
}
