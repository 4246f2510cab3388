package org.hpio.internal.sys;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The fields of statx(2) that hpio uses: the file's type, the device it lives on and its O_DIRECT alignment.
 *
 * <p>{@link #LAYOUT} is {@code struct statx} field by field from the kernel's {@code include/uapi/linux/stat.h}
 * (256 bytes); a test checks its offsets against the C compiler's. The call goes through {@link Syscalls}'
 * downcall and errno handling: a failure is the {@link IOException} of {@link Errno#exception}.
 *
 * @param mask         {@code stx_mask}: which fields the kernel filled in ({@code STATX_*} bits)
 * @param mode         {@code stx_mode}: the file's type and permissions ({@code S_IFMT} bits: {@link #isRegularFile})
 * @param devMajor     {@code stx_dev_major}: the device that holds the file
 * @param devMinor     {@code stx_dev_minor}
 * @param dioMemAlign  {@code stx_dio_mem_align}: buffer address alignment for O_DIRECT; 0 when unsupported
 * @param dioOffsetAlign {@code stx_dio_offset_align}: file offset and length alignment for O_DIRECT; 0 when
 *                     unsupported
 * @param ino          {@code stx_ino}: the file's inode number (asked with {@link #STATX_INO})
 * @param size         {@code stx_size}: the file's size in bytes (asked with {@link #STATX_SIZE})
 */
public record Statx(int mask, int mode, int devMajor, int devMinor, int dioMemAlign, int dioOffsetAlign, long ino,
                    long size) {
    /** The file's type, in {@link #mode}. */
    public static final int STATX_TYPE = 0x1;
    /** The file's inode number, in {@link #ino}. */
    public static final int STATX_INO = 0x100;
    /** The file's size, in {@link #size}. */
    public static final int STATX_SIZE = 0x200;
    public static final int STATX_BASIC_STATS = 0x7ff;
    static final int S_IFMT = 0170000;
    static final int S_IFREG = 0100000;
    static final int S_IFIFO = 0010000;
    /** Since Linux 6.1; an older kernel leaves the bit clear in {@link #mask}. */
    public static final int STATX_DIOALIGN = 0x2000;

    static final int AT_FDCWD = -100;
    static final int AT_EMPTY_PATH = 0x1000;

    /** {@code struct statx_timestamp}. */
    static final StructLayout TIMESTAMP = MemoryLayout.structLayout(
            JAVA_LONG.withName("tv_sec"),
            JAVA_INT.withName("tv_nsec"),
            JAVA_INT.withName("__reserved"));

    /** {@code struct statx}. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("stx_mask"),
            JAVA_INT.withName("stx_blksize"),
            JAVA_LONG.withName("stx_attributes"),
            JAVA_INT.withName("stx_nlink"),
            JAVA_INT.withName("stx_uid"),
            JAVA_INT.withName("stx_gid"),
            JAVA_SHORT.withName("stx_mode"),
            JAVA_SHORT.withName("__spare0"),
            JAVA_LONG.withName("stx_ino"),
            JAVA_LONG.withName("stx_size"),
            JAVA_LONG.withName("stx_blocks"),
            JAVA_LONG.withName("stx_attributes_mask"),
            TIMESTAMP.withName("stx_atime"),
            TIMESTAMP.withName("stx_btime"),
            TIMESTAMP.withName("stx_ctime"),
            TIMESTAMP.withName("stx_mtime"),
            JAVA_INT.withName("stx_rdev_major"),
            JAVA_INT.withName("stx_rdev_minor"),
            JAVA_INT.withName("stx_dev_major"),
            JAVA_INT.withName("stx_dev_minor"),
            JAVA_LONG.withName("stx_mnt_id"),
            JAVA_INT.withName("stx_dio_mem_align"),
            JAVA_INT.withName("stx_dio_offset_align"),
            MemoryLayout.sequenceLayout(12, JAVA_LONG).withName("__spare3"));

    private static final VarHandle MASK = field("stx_mask");
    private static final VarHandle MODE = field("stx_mode");
    private static final VarHandle INO = field("stx_ino");
    private static final VarHandle SIZE = field("stx_size");
    private static final VarHandle DEV_MAJOR = field("stx_dev_major");
    private static final VarHandle DEV_MINOR = field("stx_dev_minor");
    private static final VarHandle DIO_MEM_ALIGN = field("stx_dio_mem_align");
    private static final VarHandle DIO_OFFSET_ALIGN = field("stx_dio_offset_align");

    /** int statx(int dirfd, const char *pathname, int flags, unsigned int mask, struct statx *statxbuf). */
    private static final MethodHandle STATX = Syscalls.downcall("statx",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS));

    private static VarHandle field(String name) {
        return LAYOUT.varHandle(groupElement(name));
    }

    /** statx of the open descriptor {@code fd} (AT_EMPTY_PATH); {@code path} names the file in errors. */
    public static Statx of(int fd, String path, int mask) throws IOException {
        CallMemory block = CallMemory.take();
        try {
            return statx(fd, EMPTY_NAME, AT_EMPTY_PATH, mask, path, block);
        } finally {
            CallMemory.give(block);
        }
    }

    /** The empty C string that names the descriptor itself (with AT_EMPTY_PATH); read only by the kernel. */
    private static final MemorySegment EMPTY_NAME = Arena.global().allocate(1);

    /** statx of {@code path}, following a final symbolic link. */
    public static Statx of(String path, int mask) throws IOException {
        CallMemory block = CallMemory.take();
        try {
            MemorySegment cName = Syscalls.cName(block, path);
            if (cName == null) {
                try (Arena arena = Arena.ofConfined()) {
                    return statx(AT_FDCWD, Syscalls.cName(arena, path), 0, mask, path, block);
                }
            }
            return statx(AT_FDCWD, cName, 0, mask, path, block);
        } finally {
            CallMemory.give(block);
        }
    }

    /** One statx into {@code block}'s buffer ({@link CallMemory}, the caller's). */
    private static Statx statx(int dirfd, MemorySegment cName, int flags, int mask, String path, CallMemory block)
            throws IOException {
        MemorySegment buffer = block.arguments(LAYOUT.byteSize());
        Syscalls.call("statx", path, -1, true, 0, block,
                c -> (int) STATX.invokeExact(c, dirfd, cName, flags, mask, buffer));
        return new Statx((int) MASK.get(buffer, 0L), Short.toUnsignedInt((short) MODE.get(buffer, 0L)),
                (int) DEV_MAJOR.get(buffer, 0L), (int) DEV_MINOR.get(buffer, 0L), (int) DIO_MEM_ALIGN.get(buffer, 0L),
                (int) DIO_OFFSET_ALIGN.get(buffer, 0L), (long) INO.get(buffer, 0L), (long) SIZE.get(buffer, 0L));
    }

    /** Whether the file is a regular file (asked with {@link #STATX_TYPE}, or any mask that includes it). */
    public boolean isRegularFile() {
        return (mode & S_IFMT) == S_IFREG;
    }

    /** Whether the file is a named pipe (asked with {@link #STATX_TYPE}, or any mask that includes it). */
    public boolean isPipe() {
        return (mode & S_IFMT) == S_IFIFO;
    }

    /**
     * Whether the file lives on a file system without a device of its own (device major 0, an anonymous device:
     * tmpfs, procfs, sysfs, overlayfs, btrfs, NFS, FUSE, ...), as every pseudo file system does.
     */
    public boolean onAnonymousDevice() {
        return devMajor == 0;
    }

    /**
     * The device as {@code stat(2)}'s {@code st_dev} encodes it (glibc's {@code makedev}), the form the JDK's
     * {@code "unix:dev"} attribute gives.
     */
    public long dev() {
        long major = Integer.toUnsignedLong(devMajor);
        long minor = Integer.toUnsignedLong(devMinor);
        return (major & 0xfffff000L) << 32 | (major & 0xfffL) << 8 | (minor & 0xffffff00L) << 12 | minor & 0xffL;
    }

    /** Whether the kernel filled in {@link #dioMemAlign} and {@link #dioOffsetAlign} with usable values. */
    public boolean hasDirectAlignment() {
        return (mask & STATX_DIOALIGN) != 0 && dioMemAlign > 0 && dioOffsetAlign > 0;
    }
}
