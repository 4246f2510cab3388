import java.nio.ByteBuffer;
import java.nio.channels.*;
import java.nio.file.*;
import java.util.concurrent.*;

public class First2 {
    public static void main(String[] a) throws Exception {
        long t0 = System.nanoTime();
        Path p = Path.of(a[0]);
        long t1 = System.nanoTime();
        String kind = a[1];
        long[] t = new long[1];
        Callable<String> call = () -> {
            switch (kind) {
                case "fc": try (FileChannel ch = FileChannel.open(p)) { ch.read(ByteBuffer.allocate(4096), 0); return ch.toString(); }
                case "afc-read": try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(p)) { ch.read(ByteBuffer.allocate(1024), 0).get(); return ch.toString(); }
                case "afc-write": try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(p.resolveSibling("w.out"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) { ch.write(ByteBuffer.wrap(new byte[4096]), 0).get(); return ch.toString(); }
                default: throw new IllegalArgumentException(kind);
            }
        };
        String s;
        if (a.length > 2) {
            FutureTask<String> f = new FutureTask<>(call);
            Thread.ofVirtual().start(f);
            s = f.get();
        } else {
            s = call.call();
        }
        long t2 = System.nanoTime();
        System.out.printf("%-10s %s path %.1f call %.1f total %.1f ms  %s%n", kind, a.length > 2 ? "vt" : "pt", (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t2 - t0) / 1e6, s);
    }
}
