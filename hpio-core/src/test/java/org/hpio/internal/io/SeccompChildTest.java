package org.hpio.internal.io;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SeccompChild: io_uring is refused (ENOSYS) in the child and only there. */
class SeccompChildTest {
    private static final long EBADF = 9;

    /** Prints its first argument and the result (or -errno) of each io_uring system call. */
    static final class UringProbe {
        public static void main(String[] args) {
            System.out.println(args[0] + ": " + probe());
        }

        /** Sets up a one-entry ring and closes it, then enters and registers on a descriptor that is none. */
        static String probe() {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment params = arena.allocate(120);   // struct io_uring_params, zeroed
                long setup = SeccompChild.syscall(SeccompChild.SYS_IO_URING_SETUP, 1, params.address());
                if (setup >= 0) {
                    SeccompChild.syscall(SeccompChild.SYS_CLOSE, setup);
                }
                long enter = SeccompChild.syscall(SeccompChild.SYS_IO_URING_ENTER, -2, 0, 0, 0, 0, 0);
                long register = SeccompChild.syscall(SeccompChild.SYS_IO_URING_REGISTER, -2, 0, 0, 0);
                return "setup=" + (setup >= 0 ? "fd" : setup) + " enter=" + enter + " register=" + register;
            }
        }
    }

    @Test
    void theChildGetsEnosysFromEveryIoUringCall() throws IOException, InterruptedException {
        SeccompChild.Result child = SeccompChild.run(UringProbe.class, "filtered");
        assertEquals(0, child.exitCode(), child::describe);
        assertEquals("filtered: setup=-38 enter=-38 register=-38", child.stdout().strip(), child::describe);
    }

    @Test
    void withoutTheFilterIoUringWorks() {
        String here = UringProbe.probe();
        assertEquals("setup=fd enter=-" + EBADF + " register=-" + EBADF, here,
                "io_uring must be available to the test JVM itself");
    }

    @Test
    void aFailingMainFailsTheChild() throws IOException, InterruptedException {
        SeccompChild.Result child = SeccompChild.run(UringProbe.class);   // no argument: args[0] throws
        assertNotEquals(0, child.exitCode(), child::describe);
        assertTrue(child.stderr().contains("ArrayIndexOutOfBoundsException"), child::describe);
    }
}
