package org.hpio.internal.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Cleaner;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * bzip2 decompression (Zip method 12) through the system's libbz2 (Debian package {@code libbz2-1.0},
 * {@code libbz2.so.1.0}), streaming: {@link Decompressor} wraps a {@code bz_stream}. When the library is missing
 * (or {@code -Dhpio.libbz2=false}) {@link #available()} is false and {@link #unavailableReason()} says why.
 */
public final class Libbz2 {
    private static final int BZ_OK = 0;
    private static final int BZ_STREAM_END = 4;
    /** sizeof(bz_stream) on LP64: two {pointer, avail, total_lo, total_hi} groups, state, bzalloc, bzfree, opaque. */
    private static final long BZ_STREAM_SIZE = 80;
    private static final long NEXT_IN = 0;
    private static final long AVAIL_IN = 8;
    private static final long NEXT_OUT = 24;
    private static final long AVAIL_OUT = 32;

    private static final SystemLibrary<Calls> LIBRARY =
            SystemLibrary.bind("libbz2", "libbz2.so.1.0", "libbz2-1.0", Calls::bind);
    /** Ends a stream when it is closed, once, or when it becomes unreachable unclosed. */
    private static final Cleaner CLEANER = Cleaner.create();

    /** The downcall handles. */
    private record Calls(MethodHandle init, MethodHandle decompress, MethodHandle end) {
        static Calls bind(SymbolLookup lib) {
            Linker linker = Linker.nativeLinker();
            return new Calls(
                    linker.downcallHandle(lib.findOrThrow("BZ2_bzDecompressInit"),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT)),
                    linker.downcallHandle(lib.findOrThrow("BZ2_bzDecompress"),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS)),
                    linker.downcallHandle(lib.findOrThrow("BZ2_bzDecompressEnd"),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS)));
        }
    }

    private Libbz2() {
    }

    /** Whether the library was found and may be used. */
    public static boolean available() {
        return LIBRARY.available();
    }

    /** Why the library is not used, or null when it is. */
    public static String unavailableReason() {
        return LIBRARY.unavailableReason();
    }

    /** libbz2's name for a result code. */
    private static String resultName(int code) {
        return switch (code) {
            case -1 -> "BZ_SEQUENCE_ERROR";
            case -2 -> "BZ_PARAM_ERROR";
            case -3 -> "BZ_MEM_ERROR";
            case -4 -> "BZ_DATA_ERROR (the data is damaged)";
            case -5 -> "BZ_DATA_ERROR_MAGIC (not bzip2 data)";
            default -> "result " + code;
        };
    }

    /** Streaming decompression of one bzip2 stream. One thread at a time; close it. */
    public static final class Decompressor implements AutoCloseable {
        private final MemorySegment stream = Arena.ofAuto().allocate(BZ_STREAM_SIZE, 8);
        private long consumed;
        private long produced;
        private boolean ended;
        private final Cleaner.Cleanable ending;

        /** A decompressor; throws {@link IllegalStateException} saying why when libbz2 is not available. */
        public Decompressor() {
            if (!available()) {
                throw new IllegalStateException("bzip2 needs libbz2, which is not available: " + unavailableReason());
            }
            try {
                int r = (int) LIBRARY.calls().init().invokeExact(stream, 0, 0);
                if (r != BZ_OK) {
                    throw new IllegalStateException("BZ2_bzDecompressInit failed: " + resultName(r));
                }
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            MemorySegment s = stream;
            ending = CLEANER.register(this, () -> end(s));
        }

        /**
         * Decompresses from {@code in} into {@code out} (both off-heap, each under 4 GiB) until one is used up
         * or the stream ends; then {@link #consumed()} and {@link #produced()} say how far. Returns null, or
         * libbz2's name for the error.
         */
        public String step(MemorySegment in, MemorySegment out) {
            stream.set(ADDRESS, NEXT_IN, in);
            stream.set(JAVA_INT, AVAIL_IN, (int) Math.min(in.byteSize(), 0xFFFF_FFFFL));
            stream.set(ADDRESS, NEXT_OUT, out);
            stream.set(JAVA_INT, AVAIL_OUT, (int) Math.min(out.byteSize(), 0xFFFF_FFFFL));
            long inBefore = Math.min(in.byteSize(), 0xFFFF_FFFFL);
            long outBefore = Math.min(out.byteSize(), 0xFFFF_FFFFL);
            int r;
            try {
                r = (int) LIBRARY.calls().decompress().invokeExact(stream);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            consumed = inBefore - Integer.toUnsignedLong(stream.get(JAVA_INT, AVAIL_IN));
            produced = outBefore - Integer.toUnsignedLong(stream.get(JAVA_INT, AVAIL_OUT));
            ended = r == BZ_STREAM_END;
            return r == BZ_OK || r == BZ_STREAM_END ? null : resultName(r);
        }

        /** Bytes of the last step's input taken. */
        public long consumed() {
            return consumed;
        }

        /** Bytes of the last step's output written. */
        public long produced() {
            return produced;
        }

        /** Whether the bzip2 stream has ended. */
        public boolean streamEnded() {
            return ended;
        }

        /** Frees libbz2's state of the stream (once: closing again does nothing). */
        @Override
        public void close() {
            ending.clean();
        }
    }

    /** BZ2_bzDecompressEnd on {@code stream}. */
    private static void end(MemorySegment stream) {
        try {
            int ignored = (int) LIBRARY.calls().end().invokeExact(stream);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
