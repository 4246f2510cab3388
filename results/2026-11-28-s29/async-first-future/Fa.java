import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.file.*;
import java.util.concurrent.TimeUnit;
public class Fa {
    public static void main(String[] a) throws Exception {
        Path p = Path.of(a[0]);
        boolean write = a.length > 1 && a[1].equals("w");
        ByteBuffer b = write ? ByteBuffer.wrap(new byte[1024]) : ByteBuffer.allocate(1024);
        Thread.sleep(Integer.getInteger("pause", 0));
        if (Boolean.getBoolean("pre")) new java.util.concurrent.CompletableFuture<Integer>();
        long t0 = System.nanoTime();
        AsynchronousFileChannel ch = write ? AsynchronousFileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING) : AsynchronousFileChannel.open(p, StandardOpenOption.READ);
        long t1 = System.nanoTime();
        int n = (write ? ch.write(b, 0) : ch.read(b, 0)).get(30, TimeUnit.SECONDS);
        long t2 = System.nanoTime();
        ch.close();
        long t3 = System.nanoTime();
        System.out.printf("%s n=%d total %.2f open %.2f io %.2f close %.2f%n", ch.getClass().getSimpleName(), n, (t3-t0)/1e6, (t1-t0)/1e6, (t2-t1)/1e6, (t3-t2)/1e6);
    }
}
