package org.hpio.internal.io;

import org.hpio.internal.sys.Errno;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real short writes, from a file-size limit (ulimit -f) on a child JVM: a write that crosses the limit is cut
 * short by the kernel, the next one fails with EFBIG. A plain write must report the short count; a linked
 * write-then-fsync must never report the cut write as durable.
 */
class ShortWriteTest {
    @TempDir
    Path dir;

    /** Child main: ARGS engine file; prints what a write and a write-then-fsync of 8 KiB came back with. */
    static final class Probe {
        public static void main(String[] args) throws Exception {
            EngineConfig config = EngineConfig.defaults();
            try (IoEngine engine = args[0].equals("uring") ? IoEngines.openUring(config) : IoEngines.openThreads(config);
                 Arena arena = Arena.ofShared()) {
                MemorySegment data = arena.allocate(8192);
                data.fill((byte) 1);
                try (NativeFile f = NativeFile.open(Path.of(args[1] + ".plain"), Syscalls.O_RDWR | Syscalls.O_CREAT)) {
                    IoRequest r = engine.submit(IoOperation.write(f, data, 0));
                    r.await();
                    System.out.println("write=" + r.result() + " errno=" + r.errno());
                }
                try (NativeFile f = NativeFile.open(Path.of(args[1] + ".linked"), Syscalls.O_RDWR | Syscalls.O_CREAT)) {
                    IoRequest r = engine.submit(IoOperation.writeThenFsync(f, data, 0, false));
                    r.await();
                    System.out.println("linked=" + r.result() + " errno=" + r.errno());
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"uring", "threads"})
    void shortWritesAreSurfacedAndALinkedForceIsNeverReportedForACutWrite(String engine) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String command = "ulimit -f 4 && exec " + java + " --enable-native-access=ALL-UNNAMED -XX:-UsePerfData"
                + " -XX:TieredStopAtLevel=1 -cp '" + System.getProperty("java.class.path") + "' "
                + "'" + Probe.class.getName() + "' " + engine + " " + dir.resolve("f");
        Process p = new ProcessBuilder(List.of("bash", "-c", command)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("write=4096 errno=0"), "a short plain write is reported short: " + out);
        assertTrue(out.contains("linked=4096 errno=" + Errno.EFBIG),
                "the linked write went on after the short part and failed, so the force is not reported: " + out);
    }
}
