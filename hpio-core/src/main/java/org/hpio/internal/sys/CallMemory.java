package org.hpio.internal.sys;

import org.hpio.internal.mem.StagingSlots;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Native memory for one system call's small arguments and its errno: the errno capture, the structures the
 * call passes (an iovec, a statx buffer, ...) and a file name, in one block of {@value #BYTES} bytes (ownership: the caller of {@link #take} owns
 * the block until it gives it back with {@link #give}, on the same thread, before the call returns; it is only
 * ever held around downcalls, never across a park).
 *
 * <p>A platform thread has a block of its own for its life (a {@code ThreadLocal}, in an automatic arena freed
 * with the thread's entry); {@link #give} does nothing for it. A virtual thread takes one of a few shared
 * blocks ({@link StagingSlots}: one compare-and-set to take, one to give back, nothing allocated once the slots
 * are filled). Virtual threads are many and often short-lived: a block of each one's own cost each new virtual
 * thread an automatic arena, its registration with the JDK's cleaner and a collection's work to free it, about
 * 3 µs of a one-thread-per-request {@code Files.readAllBytes} of 1 KiB (AMD EPYC) beside the JDK's 50; and
 * a confined arena per call (what open and statx used) cost a {@code malloc}, a {@code free} and the arena's
 * session, about a tenth of hpio's Java time in such a read.
 */
final class CallMemory {
    /** The size of a block: the errno capture, the arguments, then a name of up to {@link #NAME_BYTES} bytes and its NUL. */
    static final int BYTES = 4608;
    /** Where the errno capture starts (Linux's capture layout, errno alone, is 4 bytes). */
    private static final long CAPTURE_OFFSET = 0;
    /** Where the arguments (an iovec, a statx buffer, a struct stat, ...) start: 16-aligned. */
    private static final long ARGUMENTS_OFFSET = 16;
    /** Where the name starts. */
    private static final long NAME_OFFSET = 512;
    /** The most bytes of arguments a block holds. */
    static final long ARGUMENTS_BYTES = NAME_OFFSET - ARGUMENTS_OFFSET;
    /** The longest name (in bytes, without its NUL) a block holds: PATH_MAX's 4096 bytes, NUL included. */
    static final int NAME_BYTES = (int) (BYTES - NAME_OFFSET - 1);

    private static final ThreadLocal<MemorySegment> OWN = ThreadLocal.withInitial(CallMemory::allocate);
    private static final StagingSlots SHARED =
            new StagingSlots(BYTES, 4 * Runtime.getRuntime().availableProcessors(), 64);

    static {
        if (Syscalls.captureBytes() > ARGUMENTS_OFFSET - CAPTURE_OFFSET) {
            throw new ExceptionInInitializerError("a call's memory does not fit its block");
        }
    }

    private CallMemory() {
    }

    private static MemorySegment allocate() {
        return Arena.ofAuto().allocate(BYTES, 64);
    }

    /** A block for this thread's next call (see the class comment for who owns it). */
    static MemorySegment take() {
        return Thread.currentThread().isVirtual() ? SHARED.acquire() : OWN.get();
    }

    /** Gives back a block {@link #take} gave this thread. */
    static void give(MemorySegment block) {
        if (Thread.currentThread().isVirtual()) {
            SHARED.release(block);
        }
    }

    /** The errno capture of {@code block} (the whole block: the downcall writes the capture layout's bytes at 0). */
    static MemorySegment capture(MemorySegment block) {
        return block;
    }

    /**
     * The first {@code bytes} of {@code block}'s arguments part (at most {@link #ARGUMENTS_BYTES}, 16-aligned),
     * for the structures one call passes the kernel; what an earlier call left there is not cleared.
     */
    static MemorySegment arguments(MemorySegment block, long bytes) {
        if (bytes > ARGUMENTS_BYTES) {
            throw new IllegalArgumentException(bytes + " bytes of arguments: a block holds " + ARGUMENTS_BYTES);
        }
        return block.asSlice(ARGUMENTS_OFFSET, bytes);
    }

    /**
     * {@code name}, a name's encoded bytes, as a NUL-terminated C string in {@code block}'s name part; null when
     * it does not fit (longer than {@link #NAME_BYTES}: the caller then allocates one, and the kernel refuses such
     * a name with ENAMETOOLONG).
     */
    static MemorySegment name(MemorySegment block, byte[] name) {
        if (name.length > NAME_BYTES) {
            return null;
        }
        MemorySegment cName = block.asSlice(NAME_OFFSET, name.length + 1L);
        MemorySegment.copy(name, 0, cName, ValueLayout.JAVA_BYTE, 0, name.length);
        cName.set(ValueLayout.JAVA_BYTE, name.length, (byte) 0);
        return cName;
    }
}
