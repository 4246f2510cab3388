package org.hpio.internal.sys;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The io_uring system calls (through libc's {@code syscall}, which glibc has no wrapper for) and the mmap
 * calls that share its rings, as one-line wrappers. Errors become IOExceptions through {@link Errno}.
 */
final class UringCalls {
    static final String WHAT = "io_uring";
    private static final int PROT_READ = 1;
    private static final int PROT_WRITE = 2;
    private static final int MAP_SHARED = 1;
    private static final int MAP_POPULATE = 0x8000;

    private static final MethodHandle SETUP = Syscalls.downcall("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS), Linker.Option.firstVariadicArg(1));
    private static final MethodHandle ENTER = Syscalls.downcall("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG),
            Linker.Option.firstVariadicArg(1));
    private static final MethodHandle REGISTER = Syscalls.downcall("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT),
            Linker.Option.firstVariadicArg(1));
    private static final MethodHandle MMAP = Syscalls.downcall("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MUNMAP = Syscalls.downcall("munmap",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));

    private UringCalls() {
    }

    /** io_uring_setup(2): the ring's descriptor; {@code params} is read and filled by the kernel. */
    static int setup(int entries, MemorySegment params) throws IOException {
        return (int) Syscalls.call("io_uring_setup", WHAT, -1, false,
                c -> (long) SETUP.invokeExact(c, UringLayout.SYS_IO_URING_SETUP, entries, params));
    }

    /** io_uring_enter(2): submits {@code toSubmit} entries and waits for {@code minComplete} completions. */
    static int enter(int ringFd, int toSubmit, int minComplete, int flags) throws IOException {
        return (int) Syscalls.call("io_uring_enter", WHAT, -1, true,
                c -> (long) ENTER.invokeExact(c, UringLayout.SYS_IO_URING_ENTER, ringFd, toSubmit, minComplete, flags,
                        MemorySegment.NULL, 0L));
    }

    /**
     * io_uring_enter(2) with IORING_ENTER_EXT_ARG: {@code arg} is an io_uring_getevents_arg of {@code argSize}
     * bytes. Not retried on EINTR; ETIME (the timeout passed) is an IOException like any errno.
     */
    static int enterWithArg(int ringFd, int minComplete, int flags, MemorySegment arg, long argSize) throws IOException {
        return (int) Syscalls.call("io_uring_enter", WHAT, -1, false,
                c -> (long) ENTER.invokeExact(c, UringLayout.SYS_IO_URING_ENTER, ringFd, 0, minComplete,
                        flags | UringLayout.IORING_ENTER_EXT_ARG, arg, argSize));
    }

    /** io_uring_register(2). */
    static int register(int ringFd, int opcode, MemorySegment arg, int count) throws IOException {
        return (int) Syscalls.call("io_uring_register", WHAT, -1, true,
                c -> (long) REGISTER.invokeExact(c, UringLayout.SYS_IO_URING_REGISTER, ringFd, opcode, arg, count));
    }

    /**
     * Maps {@code size} bytes of the ring at {@code offset}, shared with the kernel and populated; the view
     * belongs to {@code arena}, so that once the arena is closed Java code cannot touch the mapping (an
     * access fails with an exception instead of faulting after munmap).
     */
    static MemorySegment map(int ringFd, long size, long offset, Arena arena) throws IOException {
        MemorySegment[] mapped = new MemorySegment[1];
        Syscalls.call("mmap", WHAT, offset, false, c -> {
            MemorySegment address = (MemorySegment) MMAP.invokeExact(c, MemorySegment.NULL, size,
                    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ringFd, offset);
            if (address.address() == -1L) {
                return -1;
            }
            mapped[0] = address.reinterpret(size, arena, null);
            return 0;
        });
        return mapped[0];
    }

    /** munmap of {@code size} bytes at {@code address} (taken before the view's arena was closed). */
    static void unmap(long address, long size) throws IOException {
        MemorySegment mapping = MemorySegment.ofAddress(address);
        Syscalls.call("munmap", WHAT, -1, false, c -> (int) MUNMAP.invokeExact(c, mapping, size));
    }
}
