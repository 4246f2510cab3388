package org.hpio.internal.sys;

import org.hpio.internal.mem.Slots;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Native memory for one system call's small arguments and its errno: the errno capture, the structures the
 * call passes (an iovec, a statx buffer, ...) and a file name, in one block of {@value #BYTES} bytes.
 * Ownership: the caller of {@link #take} owns the block until it gives it back with {@link #give}, on the same
 * thread, before its call returns; a block is held around one downcall (and, on a thread's first call, the
 * downcall's linking, where a virtual thread may park: the block then stays its own meanwhile).
 *
 * <p>A platform thread has a block of its own for its life (a {@code ThreadLocal}, in an automatic arena freed with
 * the thread's entry), marked held from {@link #take} to {@link #give}: a call that a call of the same thread made
 * before giving its block back (the linking of a downcall that loads a class through an installed provider, say)
 * gets a block of its own instead of overwriting the first's name or arguments. A virtual thread takes one of a few
 * shared blocks ({@link Slots}: one compare-and-set to take, one to give back, nothing allocated once the slots are
 * filled). Virtual threads are many and often short-lived: a block of each one's own cost each new virtual thread
 * an automatic arena, its registration with the JDK's cleaner and a collection's work to free it (a virtual thread
 * per {@code Files.readAllBytes} of 1 KiB: 3,240 bytes allocated a call against the JDK's 2,020, AMD EPYC); and a
 * confined arena per call (what open and statx used) cost a {@code malloc}, a {@code free} and the arena's session
 * each time. The price: a platform thread that makes hpio's system calls keeps 4.5 KiB of native memory until it
 * ends (the JDK's own calls keep per-thread native buffers for names, and temporary direct buffers, likewise).
 *
 * <p>A block's parts are views made once, with the block: the arguments part and the name part are passed to
 * the kernel whole (a call's structures at their offsets in the arguments part, a name NUL-terminated at the
 * start of the name part), so that open, statx and preadv2 make no segment of their own (cachestat, which
 * passes two structures, slices the arguments part).
 */
final class CallMemory {
    /** The size of a block: the errno capture, the arguments, a name of up to {@link #NAME_BYTES} bytes, its NUL. */
    static final int BYTES = 4608;
    /** Where the arguments (an iovec, a statx buffer, a struct stat, ...) start: 16-aligned, past the errno capture. */
    private static final long ARGUMENTS_OFFSET = 16;
    /** Where the name starts. */
    private static final long NAME_OFFSET = 512;
    /** The most bytes of arguments a block holds. */
    static final long ARGUMENTS_BYTES = NAME_OFFSET - ARGUMENTS_OFFSET;
    /** The longest name (in bytes, without its NUL) a block holds: PATH_MAX's 4096 bytes, NUL included. */
    static final int NAME_BYTES = (int) (BYTES - NAME_OFFSET - 1);

    private static final ThreadLocal<CallMemory> OWN = ThreadLocal.withInitial(() -> new CallMemory(true));
    private static final Slots<CallMemory> SHARED = new Slots<>(4 * Runtime.getRuntime().availableProcessors());

    static {
        if (Syscalls.captureBytes() > ARGUMENTS_OFFSET) {
            throw new ExceptionInInitializerError("the errno capture does not fit its place in a block");
        }
    }

    private final MemorySegment block = Arena.ofAuto().allocate(BYTES, 64);
    private final MemorySegment arguments = block.asSlice(ARGUMENTS_OFFSET, ARGUMENTS_BYTES);
    private final MemorySegment name = block.asSlice(NAME_OFFSET);
    /** Whether this is a platform thread's own block ({@link #OWN}), which never goes to the shared slots. */
    private final boolean own;
    /** For a platform thread's own block: taken and not given back yet (only its thread reads or writes it). */
    private boolean held;

    private CallMemory(boolean own) {
        this.own = own;
    }

    /** A block for this thread's next call (see the class comment for who owns it). */
    static CallMemory take() {
        if (!Thread.currentThread().isVirtual()) {
            CallMemory mine = OWN.get();
            if (!mine.held) {
                mine.held = true;
                return mine;
            }
        }
        CallMemory idle = SHARED.take();
        return idle != null ? idle : new CallMemory(false);
    }

    /** Gives back a block {@link #take} gave this thread (a shared one goes back to the slots, or is dropped). */
    static void give(CallMemory memory) {
        if (memory.own) {
            memory.held = false;
        } else {
            SHARED.put(memory);
        }
    }

    /** The errno capture (the whole block: the downcall writes the capture layout's bytes at its start). */
    MemorySegment capture() {
        return block;
    }

    /**
     * The arguments part, {@link #ARGUMENTS_BYTES} bytes, 16-aligned, for the structures one call passes the
     * kernel (what an earlier call left there is not cleared), after a check that {@code bytes} fit in it.
     */
    MemorySegment arguments(long bytes) {
        if (bytes > ARGUMENTS_BYTES) {
            throw new IllegalArgumentException(bytes + " bytes of arguments: a block holds " + ARGUMENTS_BYTES);
        }
        return arguments;
    }

    /**
     * The name part holding {@code name}, a name's encoded bytes, NUL-terminated at its start; null when it does
     * not fit (longer than {@link #NAME_BYTES}: the caller then allocates one, and the kernel refuses such a name
     * with ENAMETOOLONG).
     */
    MemorySegment name(byte[] name) {
        if (name.length > NAME_BYTES) {
            return null;
        }
        MemorySegment.copy(name, 0, this.name, ValueLayout.JAVA_BYTE, 0, name.length);
        this.name.set(ValueLayout.JAVA_BYTE, name.length, (byte) 0);
        return this.name;
    }

    /** The address of the block's start (for tests: which block a thread got). */
    long address() {
        return block.address();
    }
}
