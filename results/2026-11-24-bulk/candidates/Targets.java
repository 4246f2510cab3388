import java.lang.foreign.*;
import java.lang.invoke.*;
import java.net.*;
import java.nio.*;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.*;
import static java.lang.foreign.ValueLayout.*;

/** The bulk targets' rows, interleaved in one process: nio, mmap, mmap-native, hpio old and new (class loaders). */
public class Targets {
    interface Run { void run() throws Throwable; }
    static long[] arr;
    static Path file;

    static Run hpio(String jar, ByteOrder order) throws Exception {
        ClassLoader cl = new URLClassLoader(new URL[]{Path.of(jar).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        Class<?> c = Class.forName("org.hpio.bulk.BulkRandomAccessFile", true, cl);
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        MethodHandle open = l.findConstructor(c, MethodType.methodType(void.class, Path.class, String.class, ByteOrder.class));
        MethodHandle read = l.findVirtual(c, "readArray", MethodType.methodType(void.class, long.class, long[].class));
        MethodHandle close = l.findVirtual(c, "close", MethodType.methodType(void.class));
        return () -> { Object h = open.invoke(file, "r", order); try { read.invoke(h, 0L, arr); } finally { close.invoke(h); } };
    }

    static Run stream(String jar, ByteOrder order) throws Exception {
        ClassLoader cl = new URLClassLoader(new URL[]{Path.of(jar).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        Class<?> c = Class.forName("org.hpio.bulk.BulkDataInputStream", true, cl);
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        MethodHandle open = l.findConstructor(c, MethodType.methodType(void.class, java.io.InputStream.class, ByteOrder.class));
        MethodHandle read = l.findVirtual(c, "readArray", MethodType.methodType(void.class, long[].class));
        MethodHandle close = l.findVirtual(c, "close", MethodType.methodType(void.class));
        return () -> { Object h = open.invoke(new java.io.FileInputStream(file.toFile()), order); try { read.invoke(h, arr); } finally { close.invoke(h); } };
    }

    public static void main(String[] a) throws Throwable {
        file = Path.of(a[0]);
        int rounds = Integer.parseInt(a[1]);
        arr = new long[(int) (Files.size(file) / 8)];
        Arrays.fill(arr, 1);
        LinkedHashMap<String, Run> c = new LinkedHashMap<>();
        c.put("nio", () -> {
            ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                int per = (1 << 20) / 8;
                for (int done = 0; done < arr.length; ) {
                    int n = Math.min(per, arr.length - done);
                    buffer.clear().limit(n * 8);
                    long at = (long) done * 8;
                    while (buffer.hasRemaining()) ch.read(buffer, at + buffer.position());
                    buffer.flip();
                    buffer.asLongBuffer().get(arr, done, n);
                    done += n;
                }
            }
        });
        for (ByteOrder o : List.of(ByteOrder.BIG_ENDIAN, ByteOrder.nativeOrder())) {
            c.put(o == ByteOrder.BIG_ENDIAN ? "mmap" : "mmap-native", () -> {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
                    MemorySegment m = ch.map(FileChannel.MapMode.READ_ONLY, 0, (long) arr.length * 8, arena);
                    MemorySegment.copy(m, JAVA_LONG_UNALIGNED.withOrder(o), 0, arr, 0, arr.length);
                }
            });
        }
        c.put("bulkraf-old", hpio(a[2], ByteOrder.BIG_ENDIAN));
        c.put("bulk-native-old", hpio(a[2], ByteOrder.nativeOrder()));
        c.put("bulkraf", hpio(a[3], ByteOrder.BIG_ENDIAN));
        c.put("bulk-native", hpio(a[3], ByteOrder.nativeOrder()));
        c.put("stream-old", stream(a[2], ByteOrder.BIG_ENDIAN));
        c.put("stream-native-old", stream(a[2], ByteOrder.nativeOrder()));
        c.put("stream", stream(a[3], ByteOrder.BIG_ENDIAN));
        c.put("stream-native", stream(a[3], ByteOrder.nativeOrder()));
        Map<String, double[]> t = new LinkedHashMap<>();
        for (String k : c.keySet()) t.put(k, new double[rounds]);
        for (int r = -1; r < rounds; r++) {
            for (var e : t.entrySet()) {
                long t0 = System.nanoTime();
                c.get(e.getKey()).run();
                if (r >= 0) e.getValue()[r] = (System.nanoTime() - t0) / 1e9;
            }
        }
        Map<String, Double> mb = new LinkedHashMap<>();
        for (var e : t.entrySet()) {
            double[] v = e.getValue().clone(); Arrays.sort(v);
            mb.put(e.getKey(), arr.length * 8.0 / v[v.length / 2] / 1e6);
            System.out.printf("%-16s %7.0f MB/s%n", e.getKey(), mb.get(e.getKey()));
        }
        System.out.printf("stream/nio %.2f stream/mmap %.2f stream-native/mmap-native %.2f (old: %.2f %.2f %.2f)%n",
                mb.get("stream") / mb.get("nio"), mb.get("stream") / mb.get("mmap"), mb.get("stream-native") / mb.get("mmap-native"),
                mb.get("stream-old") / mb.get("nio"), mb.get("stream-old") / mb.get("mmap"), mb.get("stream-native-old") / mb.get("mmap-native"));
        System.out.printf("bulkraf/nio %.2f  bulkraf/mmap %.2f  bulk-native/mmap-native %.2f  (old: %.2f %.2f %.2f)%n",
                mb.get("bulkraf") / mb.get("nio"), mb.get("bulkraf") / mb.get("mmap"), mb.get("bulk-native") / mb.get("mmap-native"),
                mb.get("bulkraf-old") / mb.get("nio"), mb.get("bulkraf-old") / mb.get("mmap"), mb.get("bulk-native-old") / mb.get("mmap-native"));
    }
}
