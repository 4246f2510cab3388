package org.hpio.internal.sys;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.Set;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The type of the file system a path lives on ({@code f_type} of statfs(2)), and whether it is a pseudo file
 * system: one whose files the kernel makes up as they are read (procfs, sysfs, cgroup, debugfs, ...), not
 * data kept on a device or in memory. Such a file reports itself as regular, but an asynchronous engine gains
 * nothing on it (its reads never wait for a device) and the reader may be the JDK itself, at a moment when the
 * engine is full of an application's load.
 */
public final class FileSystemType {
    /**
     * The pseudo file systems' magic numbers, by their names in the kernel's {@code include/uapi/linux/magic.h}
     * (a test checks each against the header).
     */
    static final Map<String, Integer> PSEUDO_MAGICS = Map.ofEntries(
            Map.entry("PROC_SUPER_MAGIC", 0x9fa0),
            Map.entry("SYSFS_MAGIC", 0x62656572),
            Map.entry("CGROUP_SUPER_MAGIC", 0x27e0eb),
            Map.entry("CGROUP2_SUPER_MAGIC", 0x63677270),
            Map.entry("DEBUGFS_MAGIC", 0x64626720),
            Map.entry("TRACEFS_MAGIC", 0x74726163),
            Map.entry("SECURITYFS_MAGIC", 0x73636673),
            Map.entry("BPF_FS_MAGIC", 0xcafe4a11),
            Map.entry("EFIVARFS_MAGIC", 0xde5e81e4),
            Map.entry("PSTOREFS_MAGIC", 0x6165676c),
            Map.entry("SELINUX_MAGIC", 0xf97cff8c),
            Map.entry("SMACK_MAGIC", 0x43415d53),
            Map.entry("BINFMTFS_MAGIC", 0x42494e4d),
            Map.entry("NSFS_MAGIC", 0x6e736673));
    private static final Set<Integer> PSEUDO = Set.copyOf(PSEUDO_MAGICS.values());

    /** Room for {@code struct statfs} (120 bytes on 64-bit Linux, a test checks), whose {@code f_type} comes first. */
    static final long STATFS_BYTES = 128;
    /**
     * Where the 32 bits of {@code f_type} that hold a magic number sit: {@code f_type} is a {@code long} on
     * 64-bit Linux (its low half first on little-endian machines), an {@code unsigned int} on s390x.
     */
    private static final long MAGIC_OFFSET = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
            || "s390x".equals(System.getProperty("os.arch")) ? 0 : 4;

    /** int statfs(const char *path, struct statfs *buf). */
    private static final MethodHandle STATFS = Syscalls.downcall("statfs",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    private FileSystemType() {
    }

    /** The magic number of the file system {@code path} (followed through symbolic links) lives on. */
    public static int of(String path) throws IOException {
        CallMemory block = CallMemory.take();
        try {
            MemorySegment cPath = Syscalls.cName(block, path);
            if (cPath == null) {
                try (Arena arena = Arena.ofConfined()) {
                    return statfs(Syscalls.cName(arena, path), path, block);
                }
            }
            return statfs(cPath, path, block);
        } finally {
            CallMemory.give(block);
        }
    }

    /** One statfs into {@code block}'s arguments ({@link CallMemory}, the caller's). */
    private static int statfs(MemorySegment cPath, String path, CallMemory block) throws IOException {
        MemorySegment buffer = block.arguments(STATFS_BYTES);
        Syscalls.call("statfs", path, -1, true, 0, block, c -> (int) STATFS.invokeExact(c, cPath, buffer));
        return buffer.get(JAVA_INT, MAGIC_OFFSET);
    }

    /** int fstatfs(int fd, struct statfs *buf). */
    private static final class Fstatfs {
        static final MethodHandle H = Syscalls.downcall("fstatfs", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    }

    /** The magic number of the file system the file open at {@code fd} lives on; {@code path} names it in errors. */
    public static int of(int fd, String path) throws IOException {
        CallMemory block = CallMemory.take();
        try {
            MemorySegment buffer = block.arguments(STATFS_BYTES);
            Syscalls.call("fstatfs", path, -1, true, 0, block, c -> (int) Fstatfs.H.invokeExact(c, fd, buffer));
            return buffer.get(JAVA_INT, MAGIC_OFFSET);
        } finally {
            CallMemory.give(block);
        }
    }

    /** Whether {@code magic} (see {@link #of}) is a pseudo file system's. */
    public static boolean isPseudo(int magic) {
        return PSEUDO.contains(magic);
    }
}
