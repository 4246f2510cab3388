package org.hpio.nio;

import org.hpio.internal.io.SeccompChild;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * hpio installed for a whole JVM with {@code -Djava.nio.file.spi.DefaultFileSystemProvider}: unmodified code
 * ({@link UnmodifiedProgram}) gets hpio's channels, on io_uring, on the portable engine when asked, and on the
 * portable engine when io_uring is refused (seccomp).
 */
class DefaultProviderTest {
    static final String PROPERTY = "-Djava.nio.file.spi.DefaultFileSystemProvider=" + HpioFileSystemProvider.class.getName();

    @TempDir
    Path dir;

    @Test
    void unmodifiedCodeGetsHpiosChannelsOnTheDefaultEngine() throws Exception {
        String out = run(List.of(PROPERTY));
        assertTrue(out.contains("afc=org.hpio.nio.HpioAsynchronousFileChannel engine="), out);
        assertTrue(out.contains("fc=org.hpio.nio.HpioFileChannel engine="), out);
        assertTrue(out.contains("\nbytechannel=sun.nio.ch.FileChannelImpl"), out);   // a platform thread's plain read
        assertTrue(out.contains("vt-bytechannel=org.hpio.nio.HpioFileChannel"), out);
        assertTrue(out.contains("provider=org.hpio.nio.HpioFileSystemProvider"), out);
        assertTrue(out.contains("everyday=ok"), out);
        assertTrue(out.contains("roundtrip=ok"), out);
        assertEquals("early late", Files.readString(dir.resolve("at-exit.txt")),
                "a shutdown hook wrote through hpio's channels after the engine closed");
    }

    @Test
    void unmodifiedCodeGetsHpiosChannelsOnThePortableEngine() throws Exception {
        String out = run(List.of(PROPERTY, "-Dhpio.engine=threads"));
        assertTrue(out.contains("afc=org.hpio.nio.HpioAsynchronousFileChannel engine=threads"), out);
        assertTrue(out.contains("fc=org.hpio.nio.HpioFileChannel engine=threads"), out);
        assertTrue(out.contains("roundtrip=ok"), out);
    }

    /** 003's experiment, unmodified code: writes far ahead of the disk stay within a 128 MB heap, every byte checked. */
    @Test
    void writesSubmittedWithoutWaitingStayBoundedInASmallHeap() throws Exception {
        String out = run(List.of(PROPERTY, "-Xmx128m"), WriteFloodProgram.class, dir.toString(), "40", "15");
        assertTrue(out.contains("channel=org.hpio.nio.HpioAsynchronousFileChannel"), out);
        assertTrue(out.contains("checked=40 files"), out);
    }

    /**
     * The same with less heap than the writes the staging budget admits (64 MiB, four of these 15 MB writes): a
     * write in flight holds its dropped heap buffer only weakly, so the heap keeps only what the caller keeps.
     */
    @Test
    void writesInFlightKeepNoHeapBufferTheirCallerDropped() throws Exception {
        String out = run(List.of(PROPERTY, "-Xmx48m"), WriteFloodProgram.class, dir.toString(), "40", "15");
        assertTrue(out.contains("channel=org.hpio.nio.HpioAsynchronousFileChannel"), out);
        assertTrue(out.contains("checked=40 files"), out);
    }

    /**
     * 200 virtual threads in O_DIRECT FileChannel reads: the JDK's channel pins each carrier in the system call
     * and the scheduler adds carriers; hpio's parks them, so the JVM keeps about the threads it started with.
     */
    @Test
    void virtualThreadsReadingThroughHpiosFileChannelNeedNoExtraCarriers() throws Exception {
        // Two carriers; the JVM's own compiler and GC threads all started up front, so only carriers come later.
        List<String> twoCarriers = List.of("-Djdk.virtualThreadScheduler.parallelism=2",
                "-XX:-UseDynamicNumberOfCompilerThreads", "-XX:-UseDynamicNumberOfGCThreads");
        String jdk = run(twoCarriers, ManyVirtualReaders.class, dir.toString(), "jdk", "200", "50");
        String hpio = run(twoCarriers, ManyVirtualReaders.class, dir.toString(), "hpio", "200", "50");
        Assumptions.assumeFalse(jdk.contains("direct=refused") || hpio.contains("direct=refused"),
                "O_DIRECT refused here");
        int jdkExtra = extraThreads(jdk);
        int hpioExtra = extraThreads(hpio);
        assertTrue(hpio.contains("channel=org.hpio.nio.HpioFileChannel"), hpio);
        // Two carriers, plus what the JVM starts by itself meanwhile (JIT compiler threads, GC workers).
        assertTrue(hpioExtra <= 16, "hpio's extra OS threads: " + hpioExtra + " (the JDK's: " + jdkExtra + ")");
        assertTrue(hpioExtra < jdkExtra, "hpio " + hpioExtra + " against the JDK's " + jdkExtra);
    }

    private static int extraThreads(String out) {
        Matcher m = Pattern.compile("extraThreads=(-?\\d+)").matcher(out);
        assertTrue(m.find(), out);
        return Integer.parseInt(m.group(1));
    }

    @Test
    void withoutThePropertyTheJdksChannelsServe() throws Exception {
        String out = run(List.of());
        assertTrue(out.contains("afc=sun.nio.ch."), out);
        assertTrue(out.contains("fc=sun.nio.ch.FileChannelImpl engine=null"), out);
        assertTrue(out.contains("roundtrip=ok"), out);
    }

    @Test
    void withIoUringRefusedThePortableEngineServes() throws Exception {
        SeccompChild.Result r = SeccompChild.run(List.of(PROPERTY), UnmodifiedProgram.class, dir.toString());
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stdout().contains("afc=org.hpio.nio.HpioAsynchronousFileChannel engine=threads"), r.describe());
        assertTrue(r.stdout().contains("fc=org.hpio.nio.HpioFileChannel engine=threads"), r.describe());
        assertTrue(r.stdout().contains("roundtrip=ok"), r.describe());
    }

    /**
     * The provider prepares its native calls in the background only where native access was granted: a program
     * that never opens an hpio channel must not get the JVM's warning about a restricted call.
     */
    @Test
    void aProgramThatOpensNoHpioChannelGetsNoNativeAccessWarning() throws Exception {
        Files.writeString(dir.resolve("paths-only.txt"), "hello");
        for (boolean granted : new boolean[] {false, true}) {
            String out = run(List.of(PROPERTY), granted, PathsOnlyProgram.class, dir.toString());
            assertTrue(out.contains("exists=true read=hello provider=" + HpioFileSystemProvider.class.getName()), out);
            assertTrue(out.contains("paths=ok"), out);
            assertFalse(out.contains("WARNING"), "native access " + (granted ? "granted" : "not granted") + ":\n" + out);
            if (!granted) {
                assertTrue(out.contains("warm-up-thread=false"), "no warm-up without native access:\n" + out);
            }
        }
        String off = run(List.of(PROPERTY, "-Dhpio.nio.warmUp=false"), true, PathsOnlyProgram.class, dir.toString());
        assertTrue(off.contains("warm-up-thread=false") && off.contains("paths=ok"), "the warm-up turned off:\n" + off);
    }

    /**
     * A program's first channels, opened while the warm-up links hpio's native calls, are served by the JDK's
     * channel without starting the Foreign Function API on the program's thread: its start-up (10-13 ms of a cold
     * JVM, the arena and memory-segment classes and their lambdas) is the warm-up's, not the first call's.
     */
    @Test
    void channelsOpenedBeforeTheNativeCallsAreReadyStartNoForeignFunctionApi() throws Exception {
        Files.writeString(dir.resolve("first.txt"), "first");
        String out = run(List.of(PROPERTY, "-Dhpio.nio.warmUp=false", "-Xlog:class+load=info:stdout"),
                FirstOpenProgram.class, dir.toString());
        int begin = out.indexOf("first-channels-begin");
        int done = out.indexOf("first-channels-done");
        assertTrue(begin > 0 && done > begin && out.contains("read=first channel=") && out.contains("async-read=5"), out);
        assertTrue(out.contains("until hpio's native calls are ready"), "a late channel of hpio's:\n" + out);
        List<String> foreign = out.substring(begin, done).lines()
                .filter(line -> line.contains(" java.lang.foreign.") || line.contains(" jdk.internal.foreign."))
                .toList();
        assertEquals(List.of(), foreign, "Foreign Function API classes loaded by the first channels");
        assertEquals("written", Files.readString(dir.resolve("written.txt")));
    }

    /**
     * Named by the JDK's property, the provider starts its warm-up when its class is initialized, before the JDK's
     * reflective construction (8-11 ms of a cold JVM), and the warm-up's first part (a first channel's classes)
     * waits for the constructor to hand it the platform's provider before it links anything; once handed over
     * it ends, and channels are hpio's.
     */
    @Test
    void theWarmUpStartsWhenTheNamedProvidersClassIsInitialized() throws Exception {
        Files.writeString(dir.resolve("early.txt"), "early");
        String out = run(List.of(PROPERTY), EarlyWarmUpProgram.class, dir.toString());
        assertTrue(out.contains("warm-up-before-construction=true"), out);
        assertTrue(out.contains("waits-for-provider=true"), out);
        assertTrue(out.contains("warm-up-ended=true"), out);
        assertTrue(out.contains("channel=HpioFileChannel[") && out.contains("ready=true")
                && !out.contains("until hpio's native calls are ready"), out);
    }

    private String run(List<String> jvmOptions) throws IOException, InterruptedException {
        return run(jvmOptions, UnmodifiedProgram.class, dir.toString());
    }

    private String run(List<String> jvmOptions, Class<?> main, String... args) throws IOException, InterruptedException {
        return run(jvmOptions, true, main, args);
    }

    private String run(List<String> jvmOptions, boolean nativeAccess, Class<?> main, String... args)
            throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m"));
        if (nativeAccess) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return e.toString();
            }
        }, Thread::startVirtualThread);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the child ended");
        String text = out.join();
        System.out.println("child " + jvmOptions + ":\n" + text);
        assertEquals(0, p.exitValue(), text);
        return text;
    }
}
