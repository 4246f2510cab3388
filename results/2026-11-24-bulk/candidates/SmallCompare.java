import java.lang.invoke.*;
import java.net.*;
import java.nio.ByteOrder;
import java.nio.file.*;
import java.util.*;

/** Old vs new BulkRandomAccessFile, side by side in one process (two class loaders), interleaved rounds. */
public class SmallCompare {
    record Impl(String name, MethodHandle open, MethodHandle read, MethodHandle close) {}

    static Impl load(String name, String jar) throws Exception {
        ClassLoader cl = new URLClassLoader(new URL[]{Path.of(jar).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        Class<?> c = Class.forName("org.hpio.bulk.BulkRandomAccessFile", true, cl);
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        return new Impl(name,
                l.findConstructor(c, MethodType.methodType(void.class, Path.class, String.class, ByteOrder.class)),
                l.findVirtual(c, "readArray", MethodType.methodType(void.class, long.class, long[].class)),
                l.findVirtual(c, "close", MethodType.methodType(void.class)));
    }

    public static void main(String[] a) throws Throwable {
        Path big = Path.of(a[0]);
        Path tiny = Path.of(a[1]);
        int rounds = Integer.parseInt(a[2]);
        List<Impl> impls = List.of(load("old", a[3]), load("new", a[4]));
        long[] sizes = {1024, 4096, 65536, 524288, 1 << 20, 4 << 20, 64 << 20};
        for (ByteOrder order : List.of(ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN)) {
            for (long size : sizes) {
                Path file = size == 1024 ? tiny : big;
                long span = size == 1024 ? 1024 : Math.min(Files.size(big), 64L << 20);
                long[] arr = new long[(int) (size / 8)];
                int calls = (int) Math.max(20, Math.min(20000, (512L << 20) / size));
                double[][] t = new double[impls.size()][rounds];
                Object[] handles = new Object[impls.size()];
                for (int i = 0; i < impls.size(); i++) handles[i] = impls.get(i).open.invoke(file, "r", order);
                for (int r = -1; r < rounds; r++) {
                    for (int i = 0; i < impls.size(); i++) {
                        MethodHandle read = impls.get(i).read;
                        Object h = handles[i];
                        long pos = 0;
                        long t0 = System.nanoTime();
                        for (int k = 0; k < calls; k++) {
                            read.invoke(h, pos, arr);
                            pos += size; if (pos + size > span) pos = 0;
                        }
                        if (r >= 0) t[i][r] = (System.nanoTime() - t0) / 1e3 / calls;
                    }
                }
                for (int i = 0; i < impls.size(); i++) impls.get(i).close.invoke(handles[i]);
                StringBuilder sb = new StringBuilder(String.format("%-6s %9d", order == ByteOrder.BIG_ENDIAN ? "BE" : "LE", size));
                double[] med = new double[impls.size()];
                for (int i = 0; i < impls.size(); i++) {
                    double[] v = t[i].clone(); Arrays.sort(v); med[i] = v[v.length / 2];
                    sb.append(String.format("   %s %9.2f us (%6.0f MB/s)", impls.get(i).name, med[i], size / med[i]));
                }
                sb.append(String.format("   new/old time %.2f", med[1] / med[0]));
                System.out.println(sb);
            }
        }
    }
}
