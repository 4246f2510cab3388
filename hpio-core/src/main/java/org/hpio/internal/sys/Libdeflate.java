package org.hpio.internal.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

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
    private static final SystemLibrary<Calls> LIBRARY =
            SystemLibrary.bind("libdeflate", "libdeflate.so.0", "libdeflate0", Calls::bind);
    private static final CodecContexts DECOMPRESSORS = new CodecContexts("libdeflate_alloc_decompressor", KEEP,
            () -> (MemorySegment) LIBRARY.calls().alloc().invokeExact(),
            d -> LIBRARY.calls().free().invokeExact(d));

    /**
     * The downcall handles; {@code decompressHeap} is the same call as {@code decompress} as a critical downcall
     * that may be given heap segments (it holds off safepoints briefly).
     */
    private record Calls(MethodHandle alloc, MethodHandle free, MethodHandle decompress,
                         MethodHandle decompressHeap) {
        static Calls bind(SymbolLookup lib) {
            Linker linker = Linker.nativeLinker();
            // enum libdeflate_result libdeflate_deflate_decompress_ex(struct libdeflate_decompressor *d,
            //     const void *in, size_t in_nbytes, void *out, size_t out_nbytes_avail,
            //     size_t *actual_in_nbytes_ret, size_t *actual_out_nbytes_ret);
            FunctionDescriptor decompressEx = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG,
                    ADDRESS, JAVA_LONG, ADDRESS, ADDRESS);
            return new Calls(
                    linker.downcallHandle(lib.findOrThrow("libdeflate_alloc_decompressor"),
                            FunctionDescriptor.of(ADDRESS)),
                    linker.downcallHandle(lib.findOrThrow("libdeflate_free_decompressor"),
                            FunctionDescriptor.ofVoid(ADDRESS)),
                    linker.downcallHandle(lib.findOrThrow("libdeflate_deflate_decompress_ex"), decompressEx),
                    linker.downcallHandle(lib.findOrThrow("libdeflate_deflate_decompress_ex"), decompressEx,
                            Linker.Option.critical(true)));
        }
    }

    private Libdeflate() {
    }

    /** Whether the library was found and may be used. */
    public static boolean available() {
        return LIBRARY.available();
    }

    /** Why the library is not used, or null when it is. */
    public static String unavailableReason() {
        return LIBRARY.unavailableReason();
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
            throw new IllegalStateException("libdeflate is not available: " + unavailableReason());
        }
        if (out.isReadOnly()) {
            throw new IllegalArgumentException("libdeflate's output segment is read-only");
        }
        boolean offHeap = in.isNative() && out.isNative();
        MemorySegment d = DECOMPRESSORS.take();
        try {
            long[] sizes = new long[2];
            MemorySegment sizesSegment = MemorySegment.ofArray(sizes);
            int r = offHeap ? decompressOffHeap(d, in, out, sizes)
                    : (int) LIBRARY.calls().decompressHeap().invokeExact(d, in, in.byteSize(), out, out.byteSize(),
                    sizesSegment, sizesSegment.asSlice(8));
            Result result = r >= 0 && r < Result.values().length ? Result.values()[r] : Result.BAD_DATA;
            return new Decoded(result, sizes[0], sizes[1]);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            DECOMPRESSORS.give(d);
        }
    }

    /** The plain downcall: its size outputs must be off-heap, in a confined arena for the call. */
    private static int decompressOffHeap(MemorySegment d, MemorySegment in, MemorySegment out, long[] sizes)
            throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment results = arena.allocate(JAVA_LONG, 2);
            int r = (int) LIBRARY.calls().decompress().invokeExact(d, in, in.byteSize(), out, out.byteSize(),
                    results, results.asSlice(8));
            sizes[0] = results.get(JAVA_LONG, 0);
            sizes[1] = results.get(JAVA_LONG, 8);
            return r;
        }
    }
}
