package org.hpio.internal.io;

import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Engine selection where io_uring is really refused: a child JVM under a seccomp filter that answers ENOSYS to
 * the io_uring system calls (not a flag), and short writes from a real file-size limit.
 */
class EngineFallbackTest {
    /** Child main: opens an engine as -Dhpio.engine=ARG would, and does a checked round trip. */
    static final class Probe {
        public static void main(String[] args) throws Exception {
            System.setProperty(IoEngines.PROPERTY, args[0]);
            try (IoEngine engine = IoEngines.open(EngineConfig.defaults())) {
                System.out.println("engine=" + engine.name());
                Path file = Files.createTempFile("hpio-fallback", ".bin");
                try (NativeFile f = NativeFile.open(file, Syscalls.O_RDWR); Arena arena = Arena.ofShared()) {
                    MemorySegment out = arena.allocate(10_000);
                    out.fill((byte) 7);
                    IoRequest write = engine.submit(IoOperation.writeThenFsync(f, out, 3, true));
                    write.await();
                    long wrote = write.resultOrThrow();
                    MemorySegment in = arena.allocate(10_000);
                    IoRequest read = engine.submit(IoOperation.read(f, in, 3));
                    read.await();
                    boolean same = read.result() == 10_000 && in.mismatch(out) == -1;
                    System.out.println("roundtrip=" + (wrote == 10_000 && same ? "ok" : "bad"));
                } finally {
                    Files.deleteIfExists(file);
                }
            } catch (IOException e) {
                System.out.println("error=" + e.getMessage());
                System.exit(3);
            }
        }
    }

    @Test
    void withIoUringRefusedAutoFallsBackToThePortableEngineWhichWorks() throws Exception {
        SeccompChild.Result r = SeccompChild.run(Probe.class, "auto");
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stdout().contains("engine=threads"), r.describe());
        assertTrue(r.stdout().contains("roundtrip=ok"), r.describe());
        assertTrue(r.stderr().contains("io_uring unavailable") && r.stderr().contains("ENOSYS"),
                "the reason is logged: " + r.describe());
    }

    @Test
    void forcingUringWhereItIsRefusedIsAnErrorNotASilentFallback() throws Exception {
        SeccompChild.Result r = SeccompChild.run(Probe.class, "uring");
        assertEquals(3, r.exitCode(), r.describe());
        assertTrue(r.stdout().contains("error=io_uring cannot start") && r.stdout().contains("ENOSYS"), r.describe());
    }

    @Test
    void onThisMachineAutoChoosesIoUring() throws Exception {
        // CI machines have io_uring: the kernel engine must be the one chosen there.
        String before = System.getProperty(IoEngines.PROPERTY);
        System.clearProperty(IoEngines.PROPERTY);
        try (IoEngine engine = IoEngines.open(EngineConfig.defaults())) {
            assertEquals("uring", engine.name());
        } finally {
            if (before != null) {
                System.setProperty(IoEngines.PROPERTY, before);
            }
        }
    }
}
