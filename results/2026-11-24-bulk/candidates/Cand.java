import java.lang.foreign.*;
import java.lang.invoke.MethodHandle;
import java.nio.ByteOrder;
import java.nio.file.*;
import java.util.*;

import static java.lang.foreign.ValueLayout.*;

/** Candidate read strategies side by side, one process, interleaved rounds. */
public class Cand {
    static final Linker L = Linker.nativeLinker();
    static final FunctionDescriptor RW = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG);
    static final MethodHandle PREAD = L.downcallHandle(L.defaultLookup().find("pread").orElseThrow(), RW);
    static final MethodHandle PREAD_C = L.downcallHandle(L.defaultLookup().find("pread").orElseThrow(), RW, Linker.Option.critical(true));
    static final MethodHandle PWRITE_C = L.downcallHandle(L.defaultLookup().find("pwrite").orElseThrow(), RW, Linker.Option.critical(true));
    static final MethodHandle PWRITE = L.downcallHandle(L.defaultLookup().find("pwrite").orElseThrow(), RW);
    static final MethodHandle OPEN = L.downcallHandle(L.defaultLookup().find("open").orElseThrow(), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    static final MethodHandle MMAP = L.downcallHandle(L.defaultLookup().find("mmap").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    static final MethodHandle MUNMAP = L.downcallHandle(L.defaultLookup().find("munmap").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    static final MethodHandle MADVISE = L.downcallHandle(L.defaultLookup().find("madvise").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));

    static int fd;
    static long[] array;
    static MemorySegment heap;
    static MemorySegment nativeBig;
    static MemorySegment stage256 = Arena.global().allocate(256 << 10, 4096);
    static MemorySegment stage1m = Arena.global().allocate(1 << 20, 4096);
    static MemorySegment stage64k = Arena.global().allocate(64 << 10, 4096);
    static final ValueLayout.OfLong BE = JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    static long pread(MethodHandle h, MemorySegment s, long pos) {
        try { return (long) h.invokeExact(fd, s, s.byteSize(), pos); } catch (Throwable t) { throw new RuntimeException(t); }
    }
    static long pwrite(MethodHandle h, MemorySegment s, long pos) {
        try { return (long) h.invokeExact(fd, s, s.byteSize(), pos); } catch (Throwable t) { throw new RuntimeException(t); }
    }

    interface Run { void run(long bytes) throws Throwable; }

    static void direct(long bytes, long chunk, long skew, boolean swap) {
        long done = 0;
        if (skew > 0) { done = pread(PREAD_C, heap.asSlice(0, skew), 0); }
        while (done < bytes) {
            MemorySegment c = heap.asSlice(done, Math.min(chunk, bytes - done));
            long got = pread(PREAD_C, c, done);
            if (swap) MemorySegment.copy(c, BE, 0, c, JAVA_LONG_UNALIGNED, 0, got / 8);
            done += got;
        }
    }
    static void toNative(long bytes, long chunk) {
        for (long done = 0; done < bytes; ) {
            done += pread(PREAD, nativeBig.asSlice(done, Math.min(chunk, bytes - done)), done);
        }
    }
    static void staged(long bytes, MemorySegment stage, boolean swap) {
        long chunk = stage.byteSize();
        for (long done = 0; done < bytes; ) {
            long n = Math.min(chunk, bytes - done);
            long got = pread(PREAD, stage.asSlice(0, n), done);
            MemorySegment.copy(stage, swap ? BE : JAVA_LONG_UNALIGNED, 0, array, (int) (done / 8), (int) (got / 8));
            done += got;
        }
    }
    static MemorySegment map(long pos, long len, Arena arena) throws Throwable {
        MemorySegment a = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, len, 1, 1 /*MAP_SHARED*/, fd, pos);
        long addr = a.address();
        return a.reinterpret(len, arena, s -> { try { int r = (int) MUNMAP.invokeExact(MemorySegment.ofAddress(addr), len); } catch (Throwable t) { throw new RuntimeException(t);} });
    }
    static void mapped(long bytes, boolean swap, int populate) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m;
            if (populate != 0) {
                MemorySegment a = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, bytes, 1, 1 | populate, fd, 0L);
                long addr = a.address();
                m = a.reinterpret(bytes, arena, s -> { try { int r = (int) MUNMAP.invokeExact(MemorySegment.ofAddress(addr), bytes); } catch (Throwable t) { throw new RuntimeException(t);} });
            } else {
                m = map(0, bytes, arena);
            }
            MemorySegment.copy(m, swap ? BE : JAVA_LONG_UNALIGNED, 0, array, 0, (int) (bytes / 8));
        }
    }
    static void mappedChunked(long bytes, boolean swap, long chunk) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = map(0, bytes, arena);
            for (long done = 0; done < bytes; done += chunk) {
                long n = Math.min(chunk, bytes - done);
                MemorySegment.copy(m, swap ? BE : JAVA_LONG_UNALIGNED, done, array, (int) (done / 8), (int) (n / 8));
            }
        }
    }
    static void sharedMapCopy(long bytes, boolean swap, MemorySegment m) {
        MemorySegment.copy(m, swap ? BE : JAVA_LONG_UNALIGNED, 0, array, 0, (int) (bytes / 8));
    }

    interface SizedRun { void run(long pos, long bytes) throws Throwable; }

    static void directAt(long pos, long bytes, boolean swap) {
        long chunk = swap ? 256 << 10 : 1 << 20;
        for (long done = 0; done < bytes; ) {
            MemorySegment c = heap.asSlice(done, Math.min(chunk, bytes - done));
            long got = pread(PREAD_C, c, pos + done);
            if (swap) MemorySegment.copy(c, BE, 0, c, JAVA_LONG_UNALIGNED, 0, got / 8);
            done += got;
        }
    }
    static void stagedAt(long pos, long bytes, boolean swap) {
        MemorySegment stage = stage1m;
        for (long done = 0; done < bytes; ) {
            long n = Math.min(stage.byteSize(), bytes - done);
            long got = pread(PREAD, stage.asSlice(0, n), pos + done);
            MemorySegment.copy(stage, swap ? BE : JAVA_LONG_UNALIGNED, 0, array, (int) (done / 8), (int) (got / 8));
            done += got;
        }
    }
    static void mmapAt(long pos, long bytes, boolean swap) throws Throwable {
        long start = pos & ~4095L;
        long len = pos + bytes - start;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = map(start, len, arena);
            for (long done = 0; done < bytes; ) {
                long n = Math.min(4 << 20, bytes - done);
                MemorySegment.copy(m, swap ? BE : JAVA_LONG_UNALIGNED, pos - start + done, array, (int) (done / 8), (int) (n / 8));
                done += n;
            }
        }
    }

    static void mmapInPlace(long pos, long bytes, long chunk) throws Throwable {
        long start = pos & ~4095L;
        long len = pos + bytes - start;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = map(start, len, arena);
            for (long done = 0; done < bytes; ) {
                long n = Math.min(chunk, bytes - done);
                MemorySegment.copy(m, pos - start + done, heap, done, n);
                MemorySegment c = heap.asSlice(done, n);
                MemorySegment.copy(c, BE, 0, c, JAVA_LONG_UNALIGNED, 0, n / 8);
                done += n;
            }
        }
    }
    static void mmapViaStage(long pos, long bytes) throws Throwable {
        long start = pos & ~4095L;
        long len = pos + bytes - start;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = map(start, len, arena);
            for (long done = 0; done < bytes; ) {
                long n = Math.min(stage256.byteSize(), bytes - done);
                MemorySegment.copy(m, pos - start + done, stage256, 0, n);
                MemorySegment.copy(stage256, BE, 0, array, (int) (done / 8), (int) (n / 8));
                done += n;
            }
        }
    }
    static void stagedAt256(long pos, long bytes, boolean swap) {
        MemorySegment stage = stage256;
        for (long done = 0; done < bytes; ) {
            long n = Math.min(stage.byteSize(), bytes - done);
            long got = pread(PREAD, stage.asSlice(0, n), pos + done);
            MemorySegment.copy(stage, swap ? BE : JAVA_LONG_UNALIGNED, 0, array, (int) (done / 8), (int) (got / 8));
            done += got;
        }
    }

    static long[] small = new long[0];
    static MemorySegment smallSeg;
    static void smallFor(long bytes) {
        if (small.length * 8L != bytes) { small = new long[(int) (bytes / 8)]; smallSeg = MemorySegment.ofArray(small); }
    }
    static void smallDirect(long pos, long bytes) {
        smallFor(bytes);
        for (long done = 0; done < bytes; ) done += pread(PREAD_C, smallSeg.asSlice(done, Math.min(1 << 20, bytes - done)), pos + done);
    }
    static void smallStaged(long pos, long bytes) {
        smallFor(bytes);
        for (long done = 0; done < bytes; ) {
            long n = Math.min(stage1m.byteSize(), bytes - done);
            long got = pread(PREAD, stage1m.asSlice(0, n), pos + done);
            MemorySegment.copy(stage1m, JAVA_LONG_UNALIGNED, 0, small, (int) (done / 8), (int) (got / 8));
            done += got;
        }
    }

    static void sweep(long fileBytes, int rounds) throws Throwable {
        long[] sizes = Arrays.stream(System.getProperty("sizes", "1024,4096,16384,65536,262144,1048576,4194304,16777216,67108864").split(",")).mapToLong(Long::parseLong).toArray();
        LinkedHashMap<String, SizedRun> c = new LinkedHashMap<>();
        c.put("direct", (p, b) -> directAt(p, b, false));
        c.put("direct-small", (p, b) -> smallDirect(p, b));
        c.put("staged-small", (p, b) -> smallStaged(p, b));
        c.put("staged256k", (p, b) -> stagedAt256(p, b, false));
        c.put("staged1m", (p, b) -> stagedAt(p, b, false));
        c.put("mmap", (p, b) -> mmapAt(p, b, false));
        c.put("BE-staged256k", (p, b) -> stagedAt256(p, b, true));
        c.put("BE-staged1m", (p, b) -> stagedAt(p, b, true));
        c.put("BE-mmap", (p, b) -> mmapAt(p, b, true));
        c.put("BE-mmap-inpl256k", (p, b) -> mmapInPlace(p, b, 256 << 10));
        c.put("BE-mmap-inpl1m", (p, b) -> mmapInPlace(p, b, 1 << 20));
        c.put("BE-mmap-stage", (p, b) -> mmapViaStage(p, b));
        System.out.printf("%-10s", "size");
        for (String k : c.keySet()) System.out.printf("%18s", k);
        System.out.println("   (us per call / MB/s)");
        for (long size : sizes) {
            long iters = Math.max(200, (256L << 20) / size / 2);
            Map<String, double[]> t = new LinkedHashMap<>();
            for (String k : c.keySet()) t.put(k, new double[rounds]);
            for (int r = -1; r < rounds; r++) {
                for (var e : t.entrySet()) {
                    SizedRun run = c.get(e.getKey());
                    long t0 = System.nanoTime();
                    long pos = 0;
                    for (long i = 0; i < iters; i++) {
                        run.run(pos, size);
                        pos += size; if (pos + size > fileBytes) pos = 0;
                    }
                    if (r >= 0) e.getValue()[r] = (System.nanoTime() - t0) / (double) iters;
                }
            }
            System.out.printf("%-10d", size);
            for (var e : t.entrySet()) {
                double[] v = e.getValue(); Arrays.sort(v); double ns = v[v.length / 2];
                System.out.printf("%10.1f/%6.0f", ns / 1e3, size / ns * 1e3);
            }
            System.out.println();
        }
    }

    public static void main(String[] args) throws Throwable {
        String file = args[0];
        long bytes = Long.parseLong(args[1]);
        int rounds = Integer.parseInt(args[2]);
        String only = args.length > 3 ? args[3] : "";
        try (Arena a = Arena.ofConfined()) {
            fd = (int) OPEN.invokeExact(a.allocateFrom(file), 0);
        }
        array = new long[(int) (bytes / 8)];
        Arrays.fill(array, 1);
        heap = MemorySegment.ofArray(array);
        nativeBig = Arena.global().allocate(bytes + 4096, 4096);
        nativeBig.fill((byte) 1);
        if (only.equals("sweep")) { sweep(bytes, rounds); return; }
        MemorySegment persistent = map(0, bytes, Arena.global());
        LinkedHashMap<String, Run> c = new LinkedHashMap<>();
        c.put("direct-1m", b -> direct(b, 1 << 20, 0, false));
        c.put("direct-128k", b -> direct(b, 128 << 10, 0, false));
        c.put("direct-1m-skew48", b -> direct(b, 1 << 20, 48, false));
        c.put("native-1m", b -> toNative(b, 1 << 20));
        c.put("native16-1m", b -> { for (long d = 0; d < b; ) d += pread(PREAD, nativeBig.asSlice(16 + d, Math.min(1 << 20, b - d)), d); });
        c.put("native64-1m", b -> { for (long d = 0; d < b; ) d += pread(PREAD, nativeBig.asSlice(64 + d, Math.min(1 << 20, b - d)), d); });
        c.put("staged64k", b -> staged(b, stage64k, false));
        c.put("staged256k", b -> staged(b, stage256, false));
        c.put("staged1m", b -> staged(b, stage1m, false));
        c.put("mmap", b -> mapped(b, false, 0));
        c.put("mmap-populate", b -> mapped(b, false, 0x8000));
        c.put("mmap-chunk1m", b -> mappedChunked(b, false, 1 << 20));
        c.put("mmap-chunk256k", b -> mappedChunked(b, false, 256 << 10));
        c.put("mmap-chunk4m", b -> mappedChunked(b, false, 4 << 20));
        c.put("mmap-chunk16m", b -> mappedChunked(b, false, 16 << 20));
        c.put("BE-mmap-chunk64k", b -> mappedChunked(b, true, 64 << 10));
        c.put("BE-mmap-chunk256k", b -> mappedChunked(b, true, 256 << 10));
        c.put("BE-mmap-chunk1m", b -> mappedChunked(b, true, 1 << 20));
        c.put("mmap-persist", b -> sharedMapCopy(b, false, persistent));
        c.put("BE-direct-256k-swap", b -> direct(b, 256 << 10, 0, true));
        c.put("BE-staged256k", b -> staged(b, stage256, true));
        c.put("BE-staged1m", b -> staged(b, stage1m, true));
        c.put("BE-mmap", b -> mapped(b, true, 0));
        c.put("BE-mmap-persist", b -> sharedMapCopy(b, true, persistent));
        Map<String, double[]> t = new LinkedHashMap<>();
        for (String k : c.keySet()) if (only.isEmpty() || Arrays.asList(only.split(",")).contains(k)) t.put(k, new double[rounds]);
        for (int r = -1; r < rounds; r++) {
            for (var e : t.entrySet()) {
                long t0 = System.nanoTime();
                c.get(e.getKey()).run(bytes);
                long ns = System.nanoTime() - t0;
                if (r >= 0) e.getValue()[r] = ns;
            }
        }
        for (var e : t.entrySet()) {
            double[] v = e.getValue(); Arrays.sort(v);
            System.out.printf("%-22s %8.0f MB/s  (median of %d)%n", e.getKey(), bytes / (v[v.length / 2] / 1e9) / 1e6, v.length);
        }
    }
}
