package org.hpio.nio;

import org.hpio.internal.io.IoEngines;
import org.hpio.internal.sys.FileSystemType;
import org.hpio.internal.sys.NativeAccess;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Statx;
import org.hpio.internal.sys.Syscalls;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.spi.FileSystemProvider;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/** hpio's own descriptor beside the JDK's channel on the same file. */
final class NativeFiles {
    private NativeFiles() {
    }

    /**
     * Pseudo file systems by the type name the JDK's {@code FileStore} gives them: {@link #servedByEngine}'s
     * answer where native calls are off (statfs(2) is a native call).
     */
    private static final Set<String> PSEUDO_STORE_TYPES = Set.of("proc", "sysfs", "cgroup", "cgroup2", "debugfs",
            "tracefs", "securityfs", "configfs", "bpf", "efivarfs", "pstore", "selinuxfs", "smackfs", "fusectl",
            "binfmt_misc", "nsfs");

    /**
     * Whether {@code path} (already opened by the JDK's channel) gets hpio's engine: a regular file on a file
     * system that keeps data (on a device or in memory). A pipe, a device, or a file the kernel makes up as it
     * is read (procfs, sysfs: regular by their mode) gets the JDK's channel alone. Such reads never wait for a
     * device, so the engine gains nothing on them, and they are often the JDK's own (its
     * {@code OperatingSystemMXBean} reads /proc through the default provider) at a moment when the engine's
     * places are full of the application's load: they must not queue behind it.
     */
    static boolean servedByEngine(FileSystemProvider jdkProvider, Path path) throws IOException {
        if (NativeAccess.available()) {
            return servedDevice(NativeFile.nameOf(path)) != NOT_SERVED;
        }
        return jdkProvider.readAttributes(path, BasicFileAttributes.class).isRegularFile()
                && !isPseudoStore(jdkProvider, path);
    }

    /**
     * The JDK's channel on the named pipe that {@code reader} (hpio's O_NONBLOCK read end, which stays the
     * caller's to close after) has open: a name remembered as a regular file that is a pipe now
     * ({@code HpioFileChannel.openRemembered}). hpio's open let through any writer that was waiting for a
     * reader, and that writer may write and close its end at any moment: had the JDK's open come after, it
     * would wait for the next writer while those bytes sat in the pipe. So this waits until the pipe is ready
     * to read (bytes in it, or a writer came and went: what the JDK's open, which waits for a writer, then a read
     * would wait for), without pinning a carrier (polls, then sleeps, 1 ms growing to 50); then opens a writer
     * of hpio's own on the pipe (O_NONBLOCK: there is a reader) for the moment of the JDK's open, which so never
     * waits, by {@code /proc/self/fd/N} (that very pipe; by the name where /proc is missing), while
     * {@code reader} still keeps the bytes. The JDK's channel then reads them and, once every writer has
     * closed, the end of the stream, as it would have from its own open. Like the JDK's open of a pipe, the wait
     * is not interruptible (an interrupt stays set). Where hpio may not write to the pipe, the JDK's open goes
     * without that writer and may wait for the next writer.
     */
    static FileChannel jdkChannelOnPipe(NativeFile reader, FileSystemProvider jdkProvider, Path path,
                                        Set<? extends OpenOption> options) throws IOException {
        awaitReadable(reader);
        String same = Files.isDirectory(Path.of("/proc/self/fd")) ? reader.procName() : path.toString();
        int writer = -1;
        try {
            writer = Syscalls.open(same, Syscalls.O_WRONLY | Syscalls.O_NONBLOCK, 0);
        } catch (IOException e) {
            // no write permission: the JDK's open goes without hpio's writer
        }
        try {
            return jdkProvider.newFileChannel(path.getFileSystem().getPath(same), options);
        } finally {
            if (writer >= 0) {
                try {
                    Syscalls.close(writer, same);
                } catch (IOException e) {
                    System.getLogger(NativeFiles.class.getName()).log(System.Logger.Level.DEBUG,
                            "closing hpio's writer on the pipe " + path + ": " + e);
                }
            }
        }
    }

    /** Waits until a read of {@code pipe} would answer at once (see {@link #jdkChannelOnPipe}). */
    private static void awaitReadable(NativeFile pipe) throws IOException {
        boolean interrupted = false;
        long pauseMillis = 1;
        while (!pipe.readableNow()) {
            try {
                Thread.sleep(pauseMillis);
            } catch (InterruptedException e) {
                interrupted = true;
            }
            pauseMillis = Math.min(2 * pauseMillis, 50);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes {@code file}, a failure logged (DEBUG): for a descriptor given up on a path that has its answer. */
    static void closeQuietly(NativeFile file) {
        try {
            file.close();
        } catch (IOException e) {
            System.getLogger(NativeFiles.class.getName()).log(System.Logger.Level.DEBUG,
                    "closing " + file.path() + ": " + e);
        }
    }

    /** What {@link #servedDevice} answers for a file the engine does not serve. */
    static final long NOT_SERVED = Long.MIN_VALUE;

    /**
     * {@link #servedByEngine} by native calls, for the file named {@code name} ({@code NativeFile.nameOf}): the
     * device it is on ({@code Statx.dev()}) when served, else {@link #NOT_SERVED}. One statx; statfs only for a
     * file without a device of its own, where every pseudo file system is.
     */
    static long servedDevice(String name) throws IOException {
        Statx statx = Statx.of(name, Statx.STATX_TYPE);
        boolean served = statx.isRegularFile() && (!statx.onAnonymousDevice()
                || !FileSystemType.isPseudo(FileSystemType.of(name)));
        return served ? statx.dev() : NOT_SERVED;
    }

    /**
     * {@link #servedByEngine}, false when it cannot tell (a name hpio's calls cannot spell, see
     * {@code Syscalls.cName}; the file gone meanwhile): the JDK's channel, already open, then serves alone.
     */
    static boolean servedByEngineOrNone(FileSystemProvider jdkProvider, Path path) {
        try {
            return servedByEngine(jdkProvider, path);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * {@link #open}, or null when hpio's open is refused where the JDK's just succeeded: a file created with a
     * mode that forbids this access (the creating open ignores it), an append-only file, a name hpio's calls
     * cannot spell. The caller's JDK channel then serves alone, as the JDK would have (with O_DIRECT the
     * refusal is thrown: the JDK's channel alone would go through the page cache); with DELETE_ON_CLOSE the
     * name is unlinked here as the JDK's open would have, a best effort.
     */
    static NativeFile openOrNull(FileSystemProvider jdkProvider, Path path, ChannelOptions options)
            throws IOException {
        try {
            return open(jdkProvider, path, options);
        } catch (IOException e) {
            if (options.direct()) {
                throw e;
            }
            System.getLogger(NativeFiles.class.getName()).log(System.Logger.Level.DEBUG,
                    "the JDK's channel serves " + path + " alone: hpio's open was refused: " + e.getMessage());
            if (options.deleteOnClose()) {
                try {
                    jdkProvider.deleteIfExists(path);
                } catch (IOException ignored) {
                    // a best effort, as the JDK's
                }
            }
            return null;
        }
    }

    /**
     * Links the statx by name that a plain read-only open makes first ({@link HpioFileChannel}), by one statx of
     * the root directory, so that the first such channel does not pay for linking it.
     */
    static void linkReadOnlyOpen() throws IOException {
        if (NativeAccess.available()) {
            Statx.of("/", Statx.STATX_TYPE);
        }
    }

    /**
     * Prepares, on a daemon thread of its own ({@code hpio-native-warm-up}), the native calls a first channel
     * makes: the Foreign Function linker's own start-up and each call's linking cost a cold JVM 60-80 ms, which
     * the first {@code FileChannel.open} and read would otherwise wait for. Then it prepares the engine's start
     * ({@link IoEngines#prepareStart}: io_uring's calls linked, the engine's classes loaded; nothing opened), so
     * that the first call that needs an engine (an asynchronous write, a read not cached) waits 5-10 ms for it,
     * not 55-75. Once per JVM, and only where hpio's
     * module was granted native access explicitly ({@code --enable-native-access}): elsewhere a native call
     * makes the JVM print a warning, which a program that never opens a channel must not see. A failure is only
     * logged (DEBUG): the first channel then links the calls itself and reports what is wrong. The thread's
     * work (60-80 ms of CPU) competes with the program's own start-up on a small machine: a program whose first
     * file call is the JDK's (a platform thread's {@code Files.readAllBytes}) took 2.0-4.4 ms for it instead of
     * 1.6-1.7 (AMD EPYC, 2 cores; the JDK's own provider 1.0-1.4). {@code -D}{@value #WARM_UP_PROPERTY}{@code =false}
     * turns it off. When {@link #warmUpEarly} started the thread already, this hands it {@code jdkProvider}, and
     * it goes on from its first part to the linking.
     *
     * @param jdkProvider the provider hpio's wraps: when it is the platform's own, the thread asks its attributes
     *                    once ({@link LateDescriptor#prepare}); another (a chain of default providers) is not
     *                    called from this thread
     */
    static void warmUpInBackground(FileSystemProvider jdkProvider) {
        WarmUp started = warmUp;
        if (started == null) {
            start(jdkProvider);
        } else if (!started.handOver(jdkProvider)) {   // it waited in vain and gave up: a warm-up of its own
            startThread(new WarmUp(jdkProvider));
        }
    }

    /**
     * Starts the warm-up from the provider's class initialization, when the JVM's default-provider property names
     * the provider: the JDK constructs it next, through a reflective constructor call whose method-handle set-up
     * takes a cold JVM 8-11 ms for any class named there (DESIGN, "First calls"). Meanwhile the thread makes its
     * first part: loading and initializing the classes a first channel needs, none of which touches a file, the
     * default file system (which is being made) or a native call. It then waits for the constructor to hand it the
     * platform's provider ({@link #warmUpInBackground}) before it links anything: a program's first
     * {@code FileChannel.open}, made at once, then finds hpio's channel classes ready rather than loading them
     * beside this thread.
     */
    static void warmUpEarly() {
        try {
            start(null);
        } catch (RuntimeException | Error e) {   // from a class initializer: never thrown, the constructor tries again
            System.getLogger(NativeFiles.class.getName()).log(System.Logger.Level.DEBUG,
                    "hpio's warm-up did not start early: " + e);
        }
    }

    private static void start(FileSystemProvider jdkProvider) {
        if (!WARM_UP_STARTED.compareAndSet(0, 1)) {
            return;
        }
        if (!NativeFiles.class.getModule().isNativeAccessEnabled()
                || !Boolean.parseBoolean(System.getProperty(WARM_UP_PROPERTY, "true"))) {
            return;   // nothing links them ahead: a channel links what it needs itself
        }
        try {
            startThread(new WarmUp(jdkProvider));
        } catch (RuntimeException | Error e) {
            WARM_UP_STARTED.set(0);   // a later construction may try again
            throw e;
        }
    }

    /** Runs {@code work} on a daemon thread of its own; while it runs, new channels are late ones. */
    private static void startThread(WarmUp work) {
        warmingUp = true;
        try {
            // no lambda: none is bootstrapped at boot
            Thread thread = new Thread(work, "hpio-native-warm-up");
            thread.setDaemon(true);
            warmUp = work;
            thread.start();
        } catch (RuntimeException | Error e) {
            warmedUp();   // no warm-up after all: channels link what they need themselves
            throw e;
        }
    }

    /**
     * Two of the small reads' staging buffers, their pages faulted in here, not by a program's first read; none
     * where direct memory is short (-XX:MaxDirectMemorySize): the first reads allocate their own then.
     */
    private static void fillStaging() {
        try {
            CachedRead.STAGING.fill(2);
        } catch (OutOfMemoryError e) {
            System.getLogger(NativeFiles.class.getName()).log(System.Logger.Level.DEBUG,
                    "no staging buffers made ahead: " + e.getMessage());
        }
    }

    /** The warm-up's work (see {@link #warmUpInBackground} and {@link #warmUpEarly}). */
    private static final class WarmUp implements Runnable {
        /**
         * How long a warm-up started early waits for its provider before it gives up (the provider was not made:
         * its class initialized by other code, the default file system made later or never); a later hand-over
         * then starts a warm-up of its own ({@link #warmUpInBackground}).
         */
        private static final long HAND_OVER_NANOS = 30_000_000_000L;
        /** The platform's provider, whose attributes a first channel opened during the warm-up asks. */
        private final HandOver<FileSystemProvider> jdkProvider;
        /** {@code jdkProvider}: the platform's provider, or null when the provider hands it over later. */
        WarmUp(FileSystemProvider jdkProvider) {
            this.jdkProvider = jdkProvider == null ? new HandOver<>() : HandOver.of(jdkProvider);
        }

        /**
         * Gives a warm-up started early its provider: it then goes on to the linking. False when it gave up
         * waiting (its thread has ended); true when it has a provider (this one, or an earlier one's).
         */
        boolean handOver(FileSystemProvider provider) {
            return jdkProvider.offer(provider);
        }

        @Override
        public void run() {
            try {
                loadFirstChannelClasses();
                FileSystemProvider jdk = jdkProvider.await(HAND_OVER_NANOS);
                if (jdk == null) {
                    return;   // the provider was never made: nothing of hpio's will open a channel
                }
                // the platform's own (in java.base): a provider of a chain is not called from this thread
                if (jdk.getClass().getModule() == Object.class.getModule()) {
                    LateDescriptor.prepare(jdk);
                }
                NativeFile.prepareFirstOpen();   // the classes of its descriptor
                // An asynchronous channel's first operation makes a CompletableFuture, whose initialization
                // initializes the ForkJoinPool's class (1-2 ms of a cold JVM, see DESIGN "First calls").
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                for (Class<?> c : List.of(HpioAsynchronousFileChannel.class, EarlyOperations.class,
                        CompletableFuture.class, CachedRead.class, CallingThreadWrite.class, BufferTransfer.class,
                        NativeFile.class, NativeFile.Lease.class, PendingOperation.class)) {
                    lookup.ensureInitialized(c);
                }
                linkReadOnlyOpen();
                if (NativeAccess.available()) {
                    Syscalls.exerciseChannelCalls();
                    NativeFile.watchDroppedDescriptors();   // channels opened meanwhile could not start it
                }
                warmedUp();
                fillStaging();
                IoEngines.prepareStart();   // last: a first channel's own calls come first
            } catch (IOException | RuntimeException | LinkageError | IllegalAccessException e) {
                System.getLogger(NativeFiles.class.getName()).log(System.Logger.Level.DEBUG,
                        "preparing hpio's native calls failed: " + e);
            } finally {
                warmedUp();   // if it failed, the next channel links what it needs and reports what is wrong
            }
        }

        /**
         * The first part: the classes a first {@code FileChannel.open} needs, in its order (the provider asks
         * IoEngines whether the engines are started), loaded, verified and initialized. A channel opened while
         * this thread loads one waits for it. Nothing here touches a file or the default file system: when
         * started early, the JDK is still making the default file system (see {@link #warmUpEarly}).
         */
        private static void loadFirstChannelClasses() throws IllegalAccessException {
            IoEngines.sharedRingsStarted();   // the engines' class, initialized (nothing started)
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            for (Class<?> c : List.of(HpioFileChannel.class, HpioFileLock.class, ChannelOptions.class,
                    LateDescriptor.class, RegularFileNames.class)) {
                lookup.ensureInitialized(c);
            }
            NativeFile.DescriptorCloser.prepare();
        }
    }

    /**
     * Whether the native calls a channel makes are ready: no warm-up is linking them now (it is done, or there
     * is none: a channel then links what it needs itself). While one is, a new channel is served by the JDK's
     * channel on its file and opens hpio's descriptor at its first call after ({@link LateDescriptor}): a
     * program's first file opened at once costs the JDK's open, not the 95-110 ms of the Foreign Function
     * linker's start-up and the calls' linking that it would otherwise wait for beside the warm-up.
     */
    static boolean channelCallsReady() {
        return !warmingUp && !heldForTests;
    }

    private static void warmedUp() {
        warmingUp = false;
    }

    /** For tests: as if a warm-up began ({@code true}) or ended ({@code false}) now. */
    static void warmingUpForTests(boolean begins) {
        warmingUp = begins;
    }

    /** For tests: waits until no warm-up is linking the native calls, so that every channel is hpio's at once. */
    static void awaitChannelCallsForTests() {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (warmingUp && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /** For tests: while {@code held}, {@link #channelCallsReady()} says no, as before the warm-up linked the calls. */
    static void holdChannelCallsForTests(boolean held) {
        heldForTests = held;
    }

    /** Set while the warm-up links the native calls (see {@link #channelCallsReady()}). */
    private static volatile boolean warmingUp;
    private static volatile boolean heldForTests;

    /**
     * 1 once a warm-up was asked for. Not an {@code AtomicBoolean}: on the way of a cold JVM's first path (the
     * provider's construction) and first channel, hpio makes no class initialize the JDK's variable handles, as
     * {@code AtomicBoolean} and {@code AtomicReference} do at their first use (2-3 ms: DESIGN, "First calls");
     * {@code AtomicInteger} and {@code AtomicLong} need none.
     */
    static final AtomicInteger WARM_UP_STARTED = new AtomicInteger();
    /** The warm-up, once started (see {@link #warmUpEarly}); null before, and where there is none. */
    private static volatile WarmUp warmUp;
    /** Turns the provider's warm-up of the native calls off when "false" ({@link #warmUpInBackground}). */
    static final String WARM_UP_PROPERTY = "hpio.nio.warmUp";

    /** By the JDK's file store; a file whose mount the JDK cannot name is taken to be on a real file system. */
    static boolean isPseudoStore(FileSystemProvider jdkProvider, Path path) {
        try {
            return PSEUDO_STORE_TYPES.contains(jdkProvider.getFileStore(path).type());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Opens hpio's descriptor on the file the JDK's channel just opened (and created or truncated, as its
     * options said), with the access mode and O_DIRECT/O_DSYNC/O_SYNC of {@code options}. DELETE_ON_CLOSE
     * unlinks the name now, as the JDK's channel does on Linux (and, as it, only as a best effort: an unlink
     * the file system refuses leaves the file): both descriptors keep the file until closed.
     * The second open goes by the same name right after the first: a rename of that name in between (by
     * another process) would give the two descriptors different files, as any two opens of a name can.
     */
    static NativeFile open(FileSystemProvider jdkProvider, Path path, ChannelOptions options) throws IOException {
        NativeFile file = NativeFile.open(path, options.nativeFlags());
        if (options.deleteOnClose()) {
            try {
                jdkProvider.deleteIfExists(path);
            } catch (IOException e) {
                // a best effort, as the JDK's (a directory that refuses the unlink keeps the file)
            } catch (RuntimeException e) {
                file.close();
                throw e;
            }
        }
        return file;
    }

}
