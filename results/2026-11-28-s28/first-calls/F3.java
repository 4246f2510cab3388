import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.concurrent.*;

public class F3 {
    public static void main(String[] a) throws Exception {
        Path p = Path.of(a[0]);
        boolean vt = a[1].equals("vt");
        Thread.sleep(Integer.parseInt(a[2]));
        Callable<long[]> c = () -> {
            System.out.println("MARK-OPEN"); long t0 = System.nanoTime();
            FileChannel ch = FileChannel.open(p);
            long t1 = System.nanoTime();
            System.out.println("MARK-READ");
            ch.read(ByteBuffer.allocate(4096), 0);
            System.out.println("MARK-END");
            long t2 = System.nanoTime();
            ch.close();
            return new long[] {t0, t1, t2};
        };
        long[] t;
        if (vt) { FutureTask<long[]> f = new FutureTask<>(c); Thread.ofVirtual().start(f); t = f.get(); } else t = c.call();
        System.out.printf("%s open %.2f read %.2f ms%n", a[1], (t[1]-t[0])/1e6, (t[2]-t[1])/1e6);
    }
}
