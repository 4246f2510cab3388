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
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Zstandard (RFC 8878; Zip method 93) through the system's libzstd (Debian package {@code libzstd1},
 * {@code libzstd.so.1}): whole-buffer compression and decompression of one frame, and streaming decompression
 * ({@link Decompressor}) and compression ({@link Compressor}) for data that is not in memory whole.
 *
 * <p>The library is looked up once; when it is missing (or {@code -Dhpio.libzstd=false}) {@link #available()}
 * is false, and every call throws {@link IllegalStateException} saying why and which package to install: there is
 * no Java fallback. Whole-buffer calls take a decompression context from a small pool ({@value #KEEP} kept);
 * either segment may be off-heap or a heap array's (heap ones go through a critical downcall).
 */
public final class Libzstd {
    /** At least libzstd's ZSTD_error_maxCode (120 in 1.5); no valid size comes near. */
    private static final long MAX_ERROR_CODE = 120;
    /** libzstd's ZSTD_error_dstSize_tooSmall. */
    private static final int DST_SIZE_TOO_SMALL = 70;
    private static final int KEEP = 8;
    private static final SystemLibrary<Calls> LIBRARY =
            SystemLibrary.bind("libzstd", "libzstd.so.1", "libzstd1", Calls::bind);
    private static final Calls CALLS = LIBRARY.calls();
    /** Decompression contexts: ZSTD_decompressDCtx starts each frame afresh, so a kept one needs no reset. */
    private static final CodecContexts CONTEXTS = new CodecContexts("ZSTD_createDCtx", KEEP,
            () -> (MemorySegment) calls().createD().invokeExact(),
            d -> {
                long ignored = (long) CALLS.freeD().invokeExact(d);
            });
    private static final boolean STABLE_OUTPUT = stableOutputKnown();
    /** Frees a stream's context when it is closed, once, or when it becomes unreachable unclosed. */
    private static final Cleaner CLEANER = Cleaner.create();
    /** ZSTD_cParameter values (zstd.h): the stable ones, and ZSTD_c_literalCompressionMode (experimental). */
    private static final int LEVEL_PARAMETER = 100;
    private static final int MIN_MATCH_PARAMETER = 105;
    private static final int LITERAL_MODE_PARAMETER = 1002;
    /** ZSTD_d_stableOutBuffer (experimental, ZSTD_d_experimentalParam2 in 1.4.4 to 1.5). */
    private static final int STABLE_OUT_BUFFER_PARAMETER = 1001;
    /** ZSTD_ps_disable (1.5; ZSTD_lcm_uncompressed in 1.4): literals stored raw, never Huffman-coded. */
    private static final int LITERALS_RAW = 2;
    /** The match length fast-decode frames look for: libzstd's effective maximum below btopt. */
    private static final int FAST_DECODE_MIN_MATCH = 6;

    /**
     * How frames are compressed.
     *
     * <p>{@code fastDecode} trades size for decoding speed, for archives read far more often than written on a
     * device faster than decompression (002 §3.2): literals are stored raw instead of Huffman-coded, and matches
     * shorter than {@value #FAST_DECODE_MIN_MATCH} bytes are not looked for, so a decoder copies more and decodes
     * fewer, longer sequences. Measured on the python trace's 1,365 files at level 9 (AMD EPYC, libzstd 1.5.4):
     * decoding 1.52x faster than level 3 for entries 10 % larger. The frames are ordinary: any decoder reads them.
     * Raw literals are an experimental libzstd parameter whose number is known for libzstd 1.4 and 1.5 only; other
     * versions refuse fast decode with an {@link IllegalStateException} rather than silently ignore it.
     *
     * @param level      libzstd's compression level, 1-22 (3 is its default)
     * @param fastDecode whether to compress for decoding speed as above
     */
    public record Settings(int level, boolean fastDecode) {
        public Settings {
            if (level < 1 || level > 22) {
                throw new IllegalArgumentException("Zstandard level must be 1..22, was " + level);
            }
        }
    }

    /**
     * What one whole-buffer decompression did.
     *
     * @param error    null on success, else libzstd's error name
     * @param tooSmall whether the error is that the frame holds more than the output's size
     * @param consumed compressed bytes the first frame takes (meaningful on success)
     * @param produced bytes written to the output (meaningful on success)
     */
    public record Decoded(String error, boolean tooSmall, long consumed, long produced) {
    }

    /** The downcall handles; {@code *Heap} ones are critical downcalls that may be given heap segments. */
    private record Calls(MethodHandle errorName, MethodHandle errorCode, MethodHandle bound,
                         MethodHandle compress, MethodHandle frameSize, MethodHandle frameSizeHeap,
                         MethodHandle createD, MethodHandle freeD, MethodHandle decompressD,
                         MethodHandle decompressDHeap, MethodHandle decompressStream,
                         MethodHandle createC, MethodHandle freeC, MethodHandle setParameter,
                         MethodHandle pledgedSize, MethodHandle compressStream2, MethodHandle compress2,
                         MethodHandle version, MethodHandle setDParameter) {
        static Calls bind(SymbolLookup lib) {
            Linker linker = Linker.nativeLinker();
            Linker.Option critical = Linker.Option.critical(true);
            FunctionDescriptor sizeOfSize = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG);
            FunctionDescriptor frameSize = FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG);
            FunctionDescriptor decompress = FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS,
                    JAVA_LONG);
            FunctionDescriptor stream = FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, ADDRESS);
            return new Calls(
                    linker.downcallHandle(lib.findOrThrow("ZSTD_getErrorName"),
                            FunctionDescriptor.of(ADDRESS, JAVA_LONG)),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_getErrorCode"),
                            FunctionDescriptor.of(JAVA_INT, JAVA_LONG)),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_compressBound"), sizeOfSize),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_compress"),
                            FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT)),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_findFrameCompressedSize"), frameSize),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_findFrameCompressedSize"), frameSize, critical),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_createDCtx"), FunctionDescriptor.of(ADDRESS)),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_freeDCtx"), FunctionDescriptor.of(JAVA_LONG, ADDRESS)),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_decompressDCtx"), decompress),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_decompressDCtx"), decompress, critical),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_decompressStream"), stream),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_createCCtx"), FunctionDescriptor.of(ADDRESS)),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_freeCCtx"), FunctionDescriptor.of(JAVA_LONG, ADDRESS)),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_CCtx_setParameter"),
                            FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT)),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_CCtx_setPledgedSrcSize"),
                            FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG)),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_compressStream2"),
                            FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, JAVA_INT)),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_compress2"),
                            FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG)),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_versionNumber"), FunctionDescriptor.of(JAVA_INT)),
                    linker.downcallHandle(lib.findOrThrow("ZSTD_DCtx_setParameter"),
                            FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT)));
        }
    }

    private Libzstd() {
    }

    /** Whether the library was found and may be used. */
    public static boolean available() {
        return LIBRARY.available();
    }

    /** Why the library is not used, or null when it is. */
    public static String unavailableReason() {
        return LIBRARY.unavailableReason();
    }

    private static Calls calls() {
        if (CALLS == null) {
            throw new IllegalStateException("Zstandard needs libzstd, which is not available: " + unavailableReason());
        }
        return CALLS;
    }

    /** The greatest compressed size of {@code size} bytes. */
    public static long compressBound(long size) {
        try {
            return (long) calls().bound().invokeExact(size);
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    /**
     * Compresses {@code in} into one frame (its content size in the header) at the start of {@code out}, which
     * should hold {@link #compressBound} bytes; both off-heap. Returns the frame's size.
     */
    public static long compress(MemorySegment in, MemorySegment out, int level) {
        return compress(in, out, new Settings(level, false));
    }

    /** {@link #compress(MemorySegment, MemorySegment, int)} with {@code settings}. */
    public static long compress(MemorySegment in, MemorySegment out, Settings settings) {
        try {
            if (!settings.fastDecode()) {
                long r = (long) calls().compress().invokeExact(out, out.byteSize(), in, in.byteSize(),
                        settings.level());
                return checked(r, "ZSTD_compress");
            }
            MemorySegment context = newCompressionContext(settings);
            try {
                return checked((long) CALLS.compress2().invokeExact(context, out, out.byteSize(), in, in.byteSize()),
                        "ZSTD_compress2");
            } finally {
                free(CALLS.freeC(), context);
            }
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    /** A new ZSTD_CCtx with {@code settings} applied; the caller frees it. */
    private static MemorySegment newCompressionContext(Settings settings) throws Throwable {
        Calls c = calls();
        if (settings.fastDecode()) {
            requireFastDecode();
        }
        MemorySegment context = (MemorySegment) c.createC().invokeExact();
        if (context.address() == 0) {
            throw new OutOfMemoryError("ZSTD_createCCtx returned NULL");
        }
        try {
            checked((long) c.setParameter().invokeExact(context, LEVEL_PARAMETER, settings.level()),
                    "compression level");
            if (settings.fastDecode()) {
                checked((long) c.setParameter().invokeExact(context, MIN_MATCH_PARAMETER, FAST_DECODE_MIN_MATCH),
                        "minimum match length");
                checked((long) c.setParameter().invokeExact(context, LITERAL_MODE_PARAMETER, LITERALS_RAW),
                        "literal compression mode");
            }
            return context;
        } catch (Throwable t) {
            free(c.freeC(), context);
            throw t;
        }
    }

    /** Whether {@link Settings#fastDecode()} may be asked for: libzstd is there, version 1.4 or 1.5. */
    public static boolean fastDecodeSupported() {
        try {
            return available() && rawLiteralsKnown((int) CALLS.version().invokeExact());
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    /**
     * Refuses fast decode where libzstd is missing or its experimental parameter numbers are not known to hpio
     * (anything but 1.4 and 1.5), with an {@link IllegalStateException} saying which.
     */
    public static void requireFastDecode() {
        try {
            int version = (int) calls().version().invokeExact();
            if (!rawLiteralsKnown(version)) {
                throw new IllegalStateException("Zstandard fast decode needs libzstd 1.4 or 1.5 (its raw-literals"
                        + " parameter is experimental and numbered differently elsewhere); this libzstd is "
                        + version / 10000 + "." + version / 100 % 100 + "." + version % 100);
            }
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    /**
     * Whether {@link Decompressor#stepInto} may be used: libzstd is there and its experimental stable output
     * buffer (1.4.4 on) is numbered as hpio knows it (up to 1.5).
     */
    public static boolean stableOutputSupported() {
        return STABLE_OUTPUT;
    }

    private static boolean stableOutputKnown() {
        try {
            if (!available()) {
                return false;
            }
            int version = (int) CALLS.version().invokeExact();
            return version >= 10404 && version < 10600;
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    private static boolean rawLiteralsKnown(int version) {
        return version >= 10400 && version < 10600;
    }

    /**
     * Decompresses the first frame of {@code in} into {@code out}; {@link Decoded#consumed()} says where the frame
     * ended (bytes after it are not read).
     */
    public static Decoded decompress(MemorySegment in, MemorySegment out) {
        if (out.isReadOnly()) {
            throw new IllegalArgumentException("libzstd's output segment is read-only");
        }
        Calls c = calls();
        boolean offHeap = in.isNative() && out.isNative();
        MemorySegment d = CONTEXTS.take();
        try {
            long frame = offHeap ? (long) c.frameSize().invokeExact(in, in.byteSize())
                    : (long) c.frameSizeHeap().invokeExact(in, in.byteSize());
            if (isError(frame)) {
                return new Decoded(errorName(frame), false, 0, 0);
            }
            long r = offHeap ? (long) c.decompressD().invokeExact(d, out, out.byteSize(), in, frame)
                    : (long) c.decompressDHeap().invokeExact(d, out, out.byteSize(), in, frame);
            if (isError(r)) {
                return new Decoded(errorName(r), (int) c.errorCode().invokeExact(r) == DST_SIZE_TOO_SMALL, frame, 0);
            }
            return new Decoded(null, false, frame, r);
        } catch (Throwable t) {
            throw rethrown(t);
        } finally {
            CONTEXTS.give(d);
        }
    }

    /**
     * ZSTD_isError without a downcall: libzstd's error codes are the last {@value #MAX_ERROR_CODE} values of
     * size_t, {@code (size_t)-code} (zstd_errors.h, ERR_isError: {@code code > ERROR(maxCode)}); the small
     * entries of an archive make this call worth saving.
     */
    private static boolean isError(long result) {
        return Long.compareUnsigned(result, -MAX_ERROR_CODE) > 0;
    }

    private static String errorName(long result) throws Throwable {
        MemorySegment name = (MemorySegment) CALLS.errorName().invokeExact(result);
        return name.reinterpret(256).getString(0);
    }

    private static long checked(long result, String call) throws Throwable {
        if (isError(result)) {
            throw new IllegalStateException(call + " failed: " + errorName(result));
        }
        return result;
    }

    private static RuntimeException rethrown(Throwable t) {
        return CodecContexts.rethrown(t);
    }

    /**
     * A streaming codec step's buffers: {@code ZSTD_inBuffer} and {@code ZSTD_outBuffer} ({pointer, size, pos}),
     * in automatic memory (a stream may move between threads; the buffers are 48 bytes).
     */
    private abstract static class Stream implements AutoCloseable {
        final Arena arena = Arena.ofAuto();
        final MemorySegment inBuffer = arena.allocate(24, 8);
        final MemorySegment outBuffer = arena.allocate(24, 8);

        /** Points the buffers at {@code in} and {@code out} (both off-heap), positions 0. */
        void point(MemorySegment in, MemorySegment out) {
            inBuffer.set(ADDRESS, 0, in);
            inBuffer.set(JAVA_LONG, 8, in.byteSize());
            inBuffer.set(JAVA_LONG, 16, 0);
            outBuffer.set(ADDRESS, 0, out);
            outBuffer.set(JAVA_LONG, 8, out.byteSize());
            outBuffer.set(JAVA_LONG, 16, 0);
        }

        /** Bytes of the last step's input taken. */
        public long consumed() {
            return inBuffer.get(JAVA_LONG, 16);
        }

        /** Bytes of the last step's output written. */
        public long produced() {
            return outBuffer.get(JAVA_LONG, 16);
        }
    }

    /** Streaming decompression of one frame (ZSTD_decompressStream). One thread at a time; close it. */
    public static final class Decompressor extends Stream {
        private final MemorySegment context;
        private final Cleaner.Cleanable freeing;
        private boolean frameEnded;
        private boolean stableOutput;

        public Decompressor() {
            try {
                context = (MemorySegment) calls().createD().invokeExact();
            } catch (Throwable t) {
                throw rethrown(t);
            }
            if (context.address() == 0) {
                throw new OutOfMemoryError("ZSTD_createDCtx returned NULL");
            }
            MemorySegment c = context;
            freeing = CLEANER.register(this, () -> free(CALLS.freeD(), c));
        }

        /**
         * Decompresses from {@code in} into {@code out} (both off-heap) until one is used up or the frame ends;
         * then {@link #consumed()} and {@link #produced()} say how far. Returns null, or libzstd's error name.
         */
        public String step(MemorySegment in, MemorySegment out) {
            point(in, out);
            return decompressStream();
        }

        /**
         * Decompresses from {@code in} into {@code out} from {@code outPosition} on, {@code out} being the same
         * whole destination at every call (libzstd's stable output buffer: it decodes in place, with no window of
         * its own to copy from); then {@link #consumed()} says how much input was taken and {@link #produced()}
         * the new position in {@code out}. Returns null, or libzstd's error name.
         */
        public String stepInto(MemorySegment in, MemorySegment out, long outPosition) {
            if (!STABLE_OUTPUT) {
                throw new IllegalStateException("this libzstd's stable output buffer is not known to hpio");
            }
            if (!stableOutput) {
                try {
                    checked((long) CALLS.setDParameter().invokeExact(context, STABLE_OUT_BUFFER_PARAMETER, 1),
                            "stable output buffer");
                } catch (Throwable t) {
                    throw rethrown(t);
                }
                stableOutput = true;
            }
            point(in, out);
            outBuffer.set(JAVA_LONG, 16, outPosition);
            return decompressStream();
        }

        /** One ZSTD_decompressStream call over the pointed buffers; null, or libzstd's error name. */
        private String decompressStream() {
            try {
                long r = (long) CALLS.decompressStream().invokeExact(context, outBuffer, inBuffer);
                if (isError(r)) {
                    return errorName(r);
                }
                frameEnded = r == 0;
                return null;
            } catch (Throwable t) {
                throw rethrown(t);
            }
        }

        /** Whether the frame has ended and all its bytes have been written out. */
        public boolean frameEnded() {
            return frameEnded;
        }

        /** Frees the context (once: closing again does nothing). */
        @Override
        public void close() {
            freeing.clean();
        }
    }

    /** Calls ZSTD_freeDCtx or ZSTD_freeCCtx ({@code free}) on {@code context}. */
    private static void free(MethodHandle free, MemorySegment context) {
        try {
            long ignored = (long) free.invokeExact(context);
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    /** Streaming compression of one frame of a known size (ZSTD_compressStream2). One thread at a time; close it. */
    public static final class Compressor extends Stream {
        private final MemorySegment context;
        private final Cleaner.Cleanable freeing;

        /** A compressor at {@code level} of a frame of {@code size} bytes (written into its header). */
        public Compressor(int level, long size) {
            this(new Settings(level, false), size);
        }

        /** A compressor with {@code settings} of a frame of {@code size} bytes (written into its header). */
        public Compressor(Settings settings, long size) {
            try {
                context = newCompressionContext(settings);
                MemorySegment c = context;
                freeing = CLEANER.register(this, () -> free(CALLS.freeC(), c));
                checked((long) CALLS.pledgedSize().invokeExact(context, size), "ZSTD_CCtx_setPledgedSrcSize");
            } catch (Throwable t) {
                throw rethrown(t);
            }
        }

        /**
         * Compresses {@code in} into {@code out} (both off-heap); with {@code end}, ends the frame. Returns how many
         * bytes libzstd still has to flush (0 when done with {@code end}); {@link #consumed()} and
         * {@link #produced()} say how far it got.
         */
        public long step(MemorySegment in, MemorySegment out, boolean end) {
            point(in, out);
            try {
                return checked((long) CALLS.compressStream2().invokeExact(context, outBuffer, inBuffer, end ? 2 : 0),
                        "ZSTD_compressStream2");
            } catch (Throwable t) {
                throw rethrown(t);
            }
        }

        /** Frees the context (once: closing again does nothing). */
        @Override
        public void close() {
            freeing.clean();
        }
    }
}
