package org.hpio.internal.io;

import org.hpio.testing.ChildJvm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Runs a main class in a child JVM where io_uring does not exist: a seccomp filter makes io_uring_setup,
 * io_uring_enter and io_uring_register fail with ENOSYS, as on a kernel built without io_uring. For tests of
 * the fallback from io_uring to another engine.
 *
 * <pre>{@code
 * SeccompChild.Result r = SeccompChild.run(MyProbe.class, "arg");   // MyProbe has a static main(String[])
 * assertEquals(0, r.exitCode(), r::describe);
 * }</pre>
 *
 * <p>As a main class ({@code SeccompChild <main class> <args...>}) it sets no_new_privs, installs the filter on
 * every thread of the JVM (SECCOMP_FILTER_FLAG_TSYNC) and then calls the main of the class named first. The
 * filter is x86_64 only; on another architecture {@link #main} fails rather than run the class unfiltered.
 */
@SuppressWarnings("restricted") // test code: FFM used directly, in this one class
public final class SeccompChild {
    static final int SYS_CLOSE = 3;
    static final int SYS_IO_URING_SETUP = 425;
    static final int SYS_IO_URING_ENTER = 426;
    static final int SYS_IO_URING_REGISTER = 427;
    static final int ENOSYS = 38;

    private static final int SYS_PRCTL = 157;
    private static final int SYS_SECCOMP = 317;
    private static final int PR_SET_NO_NEW_PRIVS = 38;
    private static final int SECCOMP_SET_MODE_FILTER = 1;
    private static final int SECCOMP_FILTER_FLAG_TSYNC = 1;
    private static final int AUDIT_ARCH_X86_64 = 0xC000003E;
    private static final int SECCOMP_RET_ALLOW = 0x7fff0000;
    private static final int SECCOMP_RET_ERRNO = 0x00050000;
    /** Offsets in struct seccomp_data. */
    private static final int DATA_NR = 0;
    private static final int DATA_ARCH = 4;
    /** Classic BPF opcodes: BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, BPF_RET|BPF_K. */
    private static final int LD_W_ABS = 0x20;
    private static final int JEQ_K = 0x15;
    private static final int RET_K = 0x06;

    /** struct sock_filter { __u16 code; __u8 jt; __u8 jf; __u32 k; }. */
    private static final StructLayout SOCK_FILTER = MemoryLayout.structLayout(
            JAVA_SHORT.withName("code"), JAVA_BYTE.withName("jt"), JAVA_BYTE.withName("jf"), JAVA_INT.withName("k"));
    /** struct sock_fprog { unsigned short len; struct sock_filter *filter; }. */
    private static final StructLayout SOCK_FPROG = MemoryLayout.structLayout(
            JAVA_SHORT.withName("len"), MemoryLayout.paddingLayout(6), ADDRESS.withName("filter"));

    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(groupElement("errno"));
    /** long syscall(long number, ...), with six variadic long arguments. */
    private static final MethodHandle SYSCALL = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("syscall").orElseThrow(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            Linker.Option.firstVariadicArg(1), Linker.Option.captureCallState("errno"));

    private SeccompChild() {
    }

    /** What a child printed and how it ended. */
    public record Result(int exitCode, String stdout, String stderr) {
        /** For assertion messages: all of it. */
        public String describe() {
            return "child exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    /**
     * Starts {@code main}'s {@code main(args)} in a child JVM without io_uring, with this JVM's class path.
     * The caller owns the process: it reads its output and waits for it (or use {@link #run}).
     */
    public static Process start(Class<?> main, String... args) throws IOException {
        return start(List.of(), main, args);
    }

    /** {@link #start(Class, String...)} with more options for the child JVM (system properties). */
    public static Process start(List<String> jvmOptions, Class<?> main, String... args) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(System.getProperty("java.home") + "/bin/java");
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-ea",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-cp", System.getProperty("java.class.path"), SeccompChild.class.getName(), main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).start();
    }

    /** {@link #start}s the child and waits, at most 2 minutes, for it to end. */
    public static Result run(Class<?> main, String... args) throws IOException, InterruptedException {
        return run(List.of(), main, args);
    }

    /** {@link #run(Class, String...)} with more options for the child JVM (system properties). */
    public static Result run(List<String> jvmOptions, Class<?> main, String... args)
            throws IOException, InterruptedException {
        ChildJvm.Output out = ChildJvm.finish(start(jvmOptions, main, args), 2, "the child running " + main.getName());
        return new Result(out.exitCode(), out.stdout(), out.stderr());
    }


    /** {@code SeccompChild <main class> <args...>}: installs the filter, then runs the class's main. */
    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: SeccompChild <main class> <args...>");
        }
        refuseIoUring();
        Method main = Class.forName(args[0]).getDeclaredMethod("main", String[].class);
        main.setAccessible(true);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Installs, on every thread of this process and for good, the filter that refuses io_uring. */
    static void refuseIoUring() {
        String arch = System.getProperty("os.arch");
        if (!arch.equals("amd64") && !arch.equals("x86_64")) {
            throw new IllegalStateException("the io_uring seccomp filter is for x86_64, not " + arch);
        }
        int deny = SECCOMP_RET_ERRNO | ENOSYS;
        int[][] program = {
                {LD_W_ABS, 0, 0, DATA_ARCH},
                {JEQ_K, 0, 4, AUDIT_ARCH_X86_64},                 // another architecture: allow
                {LD_W_ABS, 0, 0, DATA_NR},
                {JEQ_K, 3, 0, SYS_IO_URING_SETUP},
                {JEQ_K, 2, 0, SYS_IO_URING_ENTER},
                {JEQ_K, 1, 0, SYS_IO_URING_REGISTER},
                {RET_K, 0, 0, SECCOMP_RET_ALLOW},
                {RET_K, 0, 0, deny},
        };
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment filter = arena.allocate(SOCK_FILTER, program.length);
            for (int i = 0; i < program.length; i++) {
                MemorySegment insn = filter.asSlice(i * SOCK_FILTER.byteSize(), SOCK_FILTER);
                insn.set(JAVA_SHORT, 0, (short) program[i][0]);
                insn.set(JAVA_BYTE, 2, (byte) program[i][1]);
                insn.set(JAVA_BYTE, 3, (byte) program[i][2]);
                insn.set(JAVA_INT, 4, program[i][3]);
            }
            MemorySegment fprog = arena.allocate(SOCK_FPROG);
            fprog.set(JAVA_SHORT, 0, (short) program.length);
            fprog.set(ADDRESS, SOCK_FPROG.byteOffset(groupElement("filter")), filter);

            check("prctl(PR_SET_NO_NEW_PRIVS)", syscall(SYS_PRCTL, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
            // With TSYNC, a positive result is the id of a thread that could not be synchronized.
            check("seccomp(SECCOMP_SET_MODE_FILTER, TSYNC)",
                    syscall(SYS_SECCOMP, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, fprog.address()));
        }
    }

    private static void check(String call, long result) {
        if (result != 0) {
            throw new IllegalStateException(call + " failed: " + (result < 0 ? "errno " + -result : "thread " + result));
        }
    }

    /**
     * The raw system call {@code number} with up to six arguments (pointers as addresses): its result, or
     * -errno when it fails, as the kernel itself returns it.
     */
    static long syscall(long number, long... args) {
        long[] a = Arrays.copyOf(args, 6);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = arena.allocate(CAPTURE);
            long result = (long) SYSCALL.invokeExact(capture, number, a[0], a[1], a[2], a[3], a[4], a[5]);
            return result == -1 ? -(int) ERRNO.get(capture, 0L) : result;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("syscall " + number, t);
        }
    }
}
