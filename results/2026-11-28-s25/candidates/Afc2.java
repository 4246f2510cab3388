import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.file.*;
public class Afc2 {
    public static void main(String[] a) throws Exception {
        Path p = Path.of(a[0]);
        Thread.sleep(300);
        System.out.println("MARK-START");
        long t0 = System.nanoTime();
        AsynchronousFileChannel ch = AsynchronousFileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
        long t1 = System.nanoTime();
        System.out.println("MARK-OPENED");
        int n = ch.write(ByteBuffer.wrap(new byte[1024]), 0).get();
        long t2 = System.nanoTime();
        System.out.println("MARK-WRITTEN");
        ch.close();
        long t3 = System.nanoTime();
        System.out.printf("open %.1f write %.1f close %.1f ms (%d)%n", (t1-t0)/1e6, (t2-t1)/1e6, (t3-t2)/1e6, n);
    }
}
