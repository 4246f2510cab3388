package org.hpio.internal.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.ConcurrentLinkedDeque;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Whole-buffer raw Deflate decompression through the system's libdeflate (Debian package {@code libdeflate0},
 * {@code libdeflate.so.0}), about 2.5 times as fast as zlib's streaming inflate on this machine kind. Used by
 * the archive when an entry's compressed data is in memory whole and its uncompressed size is known (from the
 * central directory), which is what libdeflate's whole-buffer API needs.
 *
 * <p>The library is looked up once; when it is missing (or the system property {@code hpio.libdeflate} is
 * {@code false}) {@link #available()} is false and callers use {@code java.util.zip.Inflater} instead.
 *
 * <p>A libdeflate decompressor object is not thread-safe: each call takes one from a small pool (allocated on
 * demand; at most {@value #KEEP} are kept for reuse, the rest freed). Both segments must stay alive for
 * the call; neither is kept.
 */
public final class Libdeflate {
    /** The library's result codes (enum libdeflate_result). */
    public enum Result { SUCCESS, BAD_DATA, SHORT_OUTPUT, INSUFFICIENT_SPACE }

    /**
     * What one call did.
     *
     * @param result   the library's verdict
     * @param consumed compressed bytes the Deflate stream took (meaningful on success)
     * @param produced bytes written to the output (meaningful on success)
     */
    public record Decoded(Result result, long consumed, long produced) {
    }

    private static final int KEEP = 8;
    private static final String LIBRARY = "libdeflate.so.0";
    private static final MethodHandle ALLOC;
    private static final MethodHandle FREE_DECOMPRESSOR;
    private static final MethodHandle DECOMPRESS;
    /** The same call as a critical downcall that may be given heap segments (it holds off safepoints briefly). */
    private static final MethodHandle DECOMPRESS_HEAP;
    private static final String UNAVAILABLE;
    private static final ConcurrentLinkedDeque<MemorySegment> FREE = new ConcurrentLinkedDeque<>();

    static {
        MethodHandle alloc = null;
        MethodHandle free = null;
        MethodHandle decompress = null;
        MethodHandle decompressHeap = null;
        String why = null;
        if (!Boolean.parseBoolean(System.getProperty("hpio.libdeflate", "true"))) {
            why = "turned off by -Dhpio.libdeflate=false";
        } else if (!NativeAccess.available()) {
            why = "native calls are off: " + NativeAccess.unavailableReason();
        } else {
            try {
                SymbolLookup lib = SymbolLookup.libraryLookup(LIBRARY, Arena.global());
                Linker linker = Linker.nativeLinker();
                alloc = linker.downcallHandle(lib.findOrThrow("libdeflate_alloc_decompressor"),
                        FunctionDescriptor.of(ADDRESS));
                free = linker.downcallHandle(lib.findOrThrow("libdeflate_free_decompressor"),
                        FunctionDescriptor.ofVoid(ADDRESS));
                // enum libdeflate_result libdeflate_deflate_decompress_ex(struct libdeflate_decompressor *d,
                //     const void *in, size_t in_nbytes, void *out, size_t out_nbytes_avail,
                //     size_t *actual_in_nbytes_ret, size_t *actual_out_nbytes_ret);
                FunctionDescriptor decompressEx = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG,
                        ADDRESS, JAVA_LONG, ADDRESS, ADDRESS);
                decompress = linker.downcallHandle(lib.findOrThrow("libdeflate_deflate_decompress_ex"), decompressEx);
                decompressHeap = linker.downcallHandle(lib.findOrThrow("libdeflate_deflate_decompress_ex"),
                        decompressEx, Linker.Option.critical(true));
            } catch (RuntimeException e) {   // not found, or native access refused (IllegalCallerException)
                why = LIBRARY + " cannot be used (install Debian's package libdeflate0): " + e;
                alloc = null;
                free = null;
                decompress = null;
                decompressHeap = null;
            }
        }
        ALLOC = alloc;
        FREE_DECOMPRESSOR = free;
        DECOMPRESS = decompress;
        DECOMPRESS_HEAP = decompressHeap;
        UNAVAILABLE = why;
    }

    private Libdeflate() {
    }

    /** Whether the library was found and may be used. */
    public static boolean available() {
        return DECOMPRESS != null;
    }

    /** Why the library is not used, or null when it is. */
    public static String unavailableReason() {
        return UNAVAILABLE;
    }

    /**
     * Decompresses the raw Deflate stream at the start of {@code in} into {@code out} (the output may be no
     * larger than {@code out}). Bytes of {@code in} after the stream's end are not read; {@link Decoded#consumed()}
     * says where it ended. Either segment may be off-heap or a heap array's: heap ones go through a critical
     * downcall (no copy; safepoints wait for the call, so keep heap inputs to a few MiB), off-heap ones through
     * a plain one.
     *
     * @throws IllegalStateException when the library is not {@link #available()}
     * @throws OutOfMemoryError when the library cannot allocate a decompressor
     */
    public static Decoded inflate(MemorySegment in, MemorySegment out) {
        if (!available()) {
            throw new IllegalStateException("libdeflate is not available: " + UNAVAILABLE);
        }
        if (out.isReadOnly()) {
            throw new IllegalArgumentException("libdeflate's output segment is read-only");
        }
        boolean offHeap = in.isNative() && out.isNative();
        MemorySegment d = take();
        try {
            long[] sizes = new long[2];
            MemorySegment sizesSegment = MemorySegment.ofArray(sizes);
            int r = offHeap ? decompressOffHeap(d, in, out, sizes)
                    : (int) DECOMPRESS_HEAP.invokeExact(d, in, in.byteSize(), out, out.byteSize(), sizesSegment,
                    sizesSegment.asSlice(8));
            Result result = r >= 0 && r < Result.values().length ? Result.values()[r] : Result.BAD_DATA;
            return new Decoded(result, sizes[0], sizes[1]);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            give(d);
        }
    }

    /** The plain downcall: its size outputs must be off-heap, in a confined arena for the call. */
    private static int decompressOffHeap(MemorySegment d, MemorySegment in, MemorySegment out, long[] sizes)
            throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment results = arena.allocate(JAVA_LONG, 2);
            int r = (int) DECOMPRESS.invokeExact(d, in, in.byteSize(), out, out.byteSize(), results,
                    results.asSlice(8));
            sizes[0] = results.get(JAVA_LONG, 0);
            sizes[1] = results.get(JAVA_LONG, 8);
            return r;
        }
    }

    private static MemorySegment take() {
        MemorySegment d = FREE.pollFirst();
        if (d != null) {
            return d;
        }
        try {
            d = (MemorySegment) ALLOC.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (d.address() == 0) {
            throw new OutOfMemoryError("libdeflate_alloc_decompressor returned NULL");
        }
        return d;
    }

    /** Keeps up to {@value #KEEP} decompressors for later calls and frees the rest. */
    private static void give(MemorySegment d) {
        if (FREE.size() < KEEP) {
            FREE.addFirst(d);
            return;
        }
        try {
            FREE_DECOMPRESSOR.invokeExact(d);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
