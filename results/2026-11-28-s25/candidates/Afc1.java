import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.file.*;
public class Afc1 {
    public static void main(String[] a) throws Exception {
        Path p = Path.of(a[0]);
        if (a.length > 1) Thread.sleep(Long.parseLong(a[1]));
        long t0 = System.nanoTime();
        AsynchronousFileChannel ch = AsynchronousFileChannel.open(p, StandardOpenOption.READ);
        long t1 = System.nanoTime();
        ByteBuffer b = ByteBuffer.allocate(1024);
        int n = ch.read(b, 0).get();
        long t2 = System.nanoTime();
        ch.close();
        long t3 = System.nanoTime();
        System.out.printf("%s open %.1f read %.1f close %.1f total %.1f ms (%d)%n", ch.getClass().getSimpleName(), (t1-t0)/1e6, (t2-t1)/1e6, (t3-t2)/1e6, (t3-t0)/1e6, n);
    }
}
