import java.lang.invoke.*;
import java.net.*;
import java.nio.ByteOrder;
import java.nio.file.*;
import java.util.*;

/** bulkraf writes, old jar against new jar, interleaved, into a fresh file each time. */
public class Writes {
    interface Run { void run() throws Throwable; }
    static long[] arr;
    static Run hpio(String jar, ByteOrder order, Path file) throws Exception {
        ClassLoader cl = new URLClassLoader(new URL[]{Path.of(jar).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        Class<?> c = Class.forName("org.hpio.bulk.BulkRandomAccessFile", true, cl);
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        MethodHandle open = l.findConstructor(c, MethodType.methodType(void.class, Path.class, String.class, ByteOrder.class));
        MethodHandle write = l.findVirtual(c, "writeArray", MethodType.methodType(void.class, long.class, long[].class));
        MethodHandle close = l.findVirtual(c, "close", MethodType.methodType(void.class));
        return () -> { Object h = open.invoke(file, "rw", order); try { write.invoke(h, 0L, arr); } finally { close.invoke(h); } };
    }
    public static void main(String[] a) throws Throwable {
        Path dir = Path.of(a[0]);
        int rounds = Integer.parseInt(a[1]);
        arr = new long[(int) (Long.parseLong(a[4]) / 8)];
        new Random(1).longs(arr.length).toArray();
        for (int i = 0; i < arr.length; i++) arr[i] = i * 0x9E3779B97F4A7C15L;
        LinkedHashMap<String, Run> c = new LinkedHashMap<>();
        Path f = dir.resolve("w.bin");
        c.put("BE-old", hpio(a[2], ByteOrder.BIG_ENDIAN, f));
        c.put("BE-new", hpio(a[3], ByteOrder.BIG_ENDIAN, f));
        c.put("native-old", hpio(a[2], ByteOrder.nativeOrder(), f));
        c.put("native-new", hpio(a[3], ByteOrder.nativeOrder(), f));
        Map<String, double[]> t = new LinkedHashMap<>();
        for (String k : c.keySet()) t.put(k, new double[rounds]);
        for (int r = -1; r < rounds; r++) {
            for (var e : t.entrySet()) {
                Files.deleteIfExists(f);
                try (var ch = java.nio.channels.FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) { ch.truncate(0); }
                long t0 = System.nanoTime();
                c.get(e.getKey()).run();
                if (r >= 0) e.getValue()[r] = (System.nanoTime() - t0) / 1e9;
            }
        }
        for (var e : t.entrySet()) {
            double[] v = e.getValue().clone(); Arrays.sort(v);
            System.out.printf("%-12s %7.0f MB/s%n", e.getKey(), arr.length * 8.0 / v[v.length / 2] / 1e6);
        }
        Files.deleteIfExists(f);
    }
}
