package org.hpio.internal.sys;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The io_uring kernel structures, field by field from the kernel's {@code include/uapi/linux/io_uring.h}
 * (unions appear as their first member; only the fields hpio sets or reads are named as the header names
 * them, the rest are padding of the same size). A test checks every size and offset against the machine's
 * header. Constants are the header's, under the header's names.
 */
public final class UringLayout {
    private UringLayout() {
    }

    // ---- system calls (x86_64) and mmap offsets ----
    public static final long SYS_IO_URING_SETUP = 425;
    public static final long SYS_IO_URING_ENTER = 426;
    public static final long SYS_IO_URING_REGISTER = 427;
    public static final long IORING_OFF_SQ_RING = 0L;
    public static final long IORING_OFF_CQ_RING = 0x8000000L;
    public static final long IORING_OFF_SQES = 0x10000000L;

    // ---- opcodes (enum io_uring_op) ----
    public static final byte IORING_OP_NOP = 0;
    public static final byte IORING_OP_FSYNC = 3;
    public static final byte IORING_OP_ASYNC_CANCEL = 14;
    public static final byte IORING_OP_READ = 22;
    public static final byte IORING_OP_WRITE = 23;

    // ---- flags ----
    public static final byte IOSQE_IO_LINK = 1 << 2;
    /** Always execute in a kernel worker (io-wq), never inline in io_uring_enter. */
    public static final byte IOSQE_ASYNC = 1 << 4;
    public static final int IORING_FSYNC_DATASYNC = 1;
    public static final int IORING_SETUP_SQPOLL = 1 << 1;
    public static final int IORING_SETUP_CQSIZE = 1 << 3;
    public static final int IORING_SETUP_CLAMP = 1 << 4;
    public static final int IORING_SETUP_SUBMIT_ALL = 1 << 7;
    public static final int IORING_SETUP_COOP_TASKRUN = 1 << 8;
    public static final int IORING_SETUP_SINGLE_ISSUER = 1 << 12;
    public static final int IORING_SETUP_DEFER_TASKRUN = 1 << 13;
    public static final int IORING_FEAT_SINGLE_MMAP = 1;
    public static final int IORING_FEAT_NODROP = 1 << 1;
    public static final int IORING_ENTER_GETEVENTS = 1;
    public static final int IORING_ENTER_SQ_WAKEUP = 1 << 1;
    public static final int IORING_ENTER_SQ_WAIT = 1 << 2;
    public static final int IORING_ENTER_EXT_ARG = 1 << 3;
    public static final int IORING_FEAT_EXT_ARG = 1 << 8;
    /** io_uring_getevents_arg's min_wait_usec is honoured (Linux 6.12). */
    public static final int IORING_FEAT_MIN_TIMEOUT = 1 << 15;
    public static final int IORING_SQ_NEED_WAKEUP = 1;
    public static final int IORING_REGISTER_PROBE = 8;
    public static final int IORING_REGISTER_IOWQ_MAX_WORKERS = 19;
    public static final int IORING_REGISTER_BUFFERS = 0;
    public static final int IORING_REGISTER_FILES = 2;
    public static final byte IORING_OP_READ_FIXED = 4;
    public static final byte IORING_OP_WRITE_FIXED = 5;
    public static final byte IOSQE_FIXED_FILE = 1;
    public static final int IO_URING_OP_SUPPORTED = 1;

    /**
     * struct io_uring_getevents_arg: what IORING_ENTER_EXT_ARG passes (here: a timeout, and the minimum wait).
     * The field named {@code pad} (as in the headers this is checked against) is {@code min_wait_usec} since
     * Linux 6.12, honoured where the ring has IORING_FEAT_MIN_TIMEOUT.
     */
    public static final StructLayout GETEVENTS_ARG = MemoryLayout.structLayout(
            JAVA_LONG.withName("sigmask"), JAVA_INT.withName("sigmask_sz"), JAVA_INT.withName("pad"),
            JAVA_LONG.withName("ts")).withName("io_uring_getevents_arg");

    /** struct __kernel_timespec. */
    public static final StructLayout KERNEL_TIMESPEC = MemoryLayout.structLayout(
            JAVA_LONG.withName("tv_sec"), JAVA_LONG.withName("tv_nsec")).withName("__kernel_timespec");

    /** struct io_sqring_offsets. */
    public static final StructLayout SQRING_OFFSETS = MemoryLayout.structLayout(
            JAVA_INT.withName("head"), JAVA_INT.withName("tail"), JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"), JAVA_INT.withName("flags"), JAVA_INT.withName("dropped"),
            JAVA_INT.withName("array"), JAVA_INT.withName("resv1"), JAVA_LONG.withName("resv2"))
            .withName("io_sqring_offsets");

    /** struct io_cqring_offsets. */
    public static final StructLayout CQRING_OFFSETS = MemoryLayout.structLayout(
            JAVA_INT.withName("head"), JAVA_INT.withName("tail"), JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"), JAVA_INT.withName("overflow"), JAVA_INT.withName("cqes"),
            JAVA_INT.withName("flags"), JAVA_INT.withName("resv1"), JAVA_LONG.withName("resv2"))
            .withName("io_cqring_offsets");

    /** struct io_uring_params. */
    public static final StructLayout PARAMS = MemoryLayout.structLayout(
            JAVA_INT.withName("sq_entries"), JAVA_INT.withName("cq_entries"), JAVA_INT.withName("flags"),
            JAVA_INT.withName("sq_thread_cpu"), JAVA_INT.withName("sq_thread_idle"), JAVA_INT.withName("features"),
            JAVA_INT.withName("wq_fd"), MemoryLayout.sequenceLayout(3, JAVA_INT).withName("resv"),
            SQRING_OFFSETS.withName("sq_off"), CQRING_OFFSETS.withName("cq_off"))
            .withName("io_uring_params");

    /** struct io_uring_sqe (64 bytes). */
    public static final StructLayout SQE = MemoryLayout.structLayout(
            JAVA_BYTE.withName("opcode"), JAVA_BYTE.withName("flags"), JAVA_SHORT.withName("ioprio"),
            JAVA_INT.withName("fd"), JAVA_LONG.withName("off"), JAVA_LONG.withName("addr"), JAVA_INT.withName("len"),
            JAVA_INT.withName("rw_flags"), JAVA_LONG.withName("user_data"), JAVA_SHORT.withName("buf_index"),
            JAVA_SHORT.withName("personality"), JAVA_INT.withName("splice_fd_in"), JAVA_LONG.withName("addr3"),
            JAVA_LONG.withName("__pad2"))
            .withName("io_uring_sqe");

    /** struct io_uring_cqe (16 bytes; no big CQEs). */
    public static final StructLayout CQE = MemoryLayout.structLayout(
            JAVA_LONG.withName("user_data"), JAVA_INT.withName("res"), JAVA_INT.withName("flags"))
            .withName("io_uring_cqe");

    /** struct io_uring_probe without its flexible array of io_uring_probe_op (8 bytes each). */
    public static final StructLayout PROBE = MemoryLayout.structLayout(
            JAVA_BYTE.withName("last_op"), JAVA_BYTE.withName("ops_len"), JAVA_SHORT.withName("resv"),
            MemoryLayout.sequenceLayout(3, JAVA_INT).withName("resv2"))
            .withName("io_uring_probe");
    public static final StructLayout PROBE_OP = MemoryLayout.structLayout(
            JAVA_BYTE.withName("op"), JAVA_BYTE.withName("resv"), JAVA_SHORT.withName("flags"),
            JAVA_INT.withName("resv2"))
            .withName("io_uring_probe_op");

    public static long offset(StructLayout layout, String... path) {
        MemoryLayout.PathElement[] elements = new MemoryLayout.PathElement[path.length];
        for (int i = 0; i < path.length; i++) {
            elements[i] = groupElement(path[i]);
        }
        return layout.byteOffset(elements);
    }

    static VarHandle field(StructLayout layout, String name) {
        return layout.varHandle(groupElement(name));
    }
}
