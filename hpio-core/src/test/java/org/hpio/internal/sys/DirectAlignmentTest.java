package org.hpio.internal.sys;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static org.hpio.internal.sys.CStructOffsets.offsetof;
import static org.hpio.internal.sys.CStructOffsets.sizeof;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DirectAlignment and Statx against this machine's file systems (the temporary directory must be on a block
 * device file system, such as ext4), and the statx struct layout against the C compiler's.
 */
class DirectAlignmentTest {
    @TempDir
    Path dir;

    @Test
    void statxLayoutMatchesTheKernelHeader() {
        List<String> expressions = new ArrayList<>(List.of(sizeof("struct statx"), "STATX_DIOALIGN",
                "STATX_BASIC_STATS", "STATX_TYPE", "AT_FDCWD", "AT_EMPTY_PATH"));
        List<String> fields = Statx.LAYOUT.memberLayouts().stream()
                .map(m -> m.name().orElseThrow())
                .filter(name -> !name.startsWith("__"))
                .toList();
        fields.forEach(f -> expressions.add(offsetof("struct statx", f)));

        Map<String, Long> c = CStructOffsets.evaluate(List.of("linux/stat.h", "linux/fcntl.h"), expressions);

        assertEquals(c.get(sizeof("struct statx")), Statx.LAYOUT.byteSize(), "sizeof(struct statx)");
        assertEquals(c.get("STATX_DIOALIGN"), (long) Statx.STATX_DIOALIGN);
        assertEquals(c.get("STATX_BASIC_STATS"), (long) Statx.STATX_BASIC_STATS);
        assertEquals(c.get("STATX_TYPE"), (long) Statx.STATX_TYPE);
        Map<String, Long> modes = CStructOffsets.evaluate(List.of("sys/stat.h"), List.of("S_IFMT", "S_IFREG"));
        assertEquals(modes.get("S_IFMT"), (long) Statx.S_IFMT);
        assertEquals(modes.get("S_IFREG"), (long) Statx.S_IFREG);
        assertEquals(c.get("AT_FDCWD"), (long) Statx.AT_FDCWD);
        assertEquals(c.get("AT_EMPTY_PATH"), (long) Statx.AT_EMPTY_PATH);
        for (String field : fields) {
            assertEquals(c.get(offsetof("struct statx", field)), Statx.LAYOUT.byteOffset(groupElement(field)),
                    "offset of " + field);
        }
    }

    @Test
    void alignmentOfAFileIsAPowerOfTwoThatDirectIoAccepts() throws IOException {
        Path path = dir.resolve("data");
        Files.write(path, new byte[64 * 1024]);
        DirectAlignment byPath = DirectAlignment.of(path);
        System.out.println("DirectAlignment of a file in " + dir + ": " + byPath);

        assertTrue(byPath.offsetAlignment() >= 512 && Integer.bitCount(byPath.offsetAlignment()) == 1, byPath::toString);
        assertTrue(byPath.memoryAlignment() >= 1 && Integer.bitCount(byPath.memoryAlignment()) == 1, byPath::toString);
        assertEquals(path.toString(), byPath.path());
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY | Syscalls.O_DIRECT);
             Arena arena = Arena.ofConfined()) {
            assertEquals(byPath, DirectAlignment.of(file), "by descriptor and by path agree");
            // The alignment it reports is enough for the kernel: an O_DIRECT read with exactly that alignment.
            int size = Math.max(byPath.offsetAlignment(), byPath.memoryAlignment());
            MemorySegment buffer = arena.allocate(size, byPath.memoryAlignment());
            byPath.check(buffer.address(), byPath.offsetAlignment(), size);
            assertEquals(size, file.read(buffer, byPath.offsetAlignment()));
        }
    }

    @Test
    void withoutStatxAlignmentTheBlockDeviceTells() throws IOException {
        // statx reports no O_DIRECT alignment for a directory; the block device under it still has a block size.
        Statx statx = Statx.of(dir.toString(), Statx.STATX_DIOALIGN);
        int blockSize = DirectAlignment.logicalBlockSize(statx.devMajor(), statx.devMinor());
        System.out.println("statx of " + dir + ": " + statx + ", logical block size " + blockSize);
        if (blockSize == 0) {
            String reason = dir + " is on no block device (" + statx.devMajor() + ":" + statx.devMinor() + ")";
            System.err.println("skipped: " + reason);
            Assumptions.abort(reason);
        }
        assertTrue(blockSize >= 512 && Integer.bitCount(blockSize) == 1, "logical block size " + blockSize);

        DirectAlignment alignment = DirectAlignment.of(dir);
        if (!statx.hasDirectAlignment()) {
            assertEquals(new DirectAlignment(dir.toString(), blockSize, blockSize, DirectAlignment.Source.BLOCK_DEVICE),
                    alignment);
            assertEquals("block device", alignment.source().toString());
        }
    }

    @Test
    void withoutABlockDeviceTheDefault() throws IOException {
        assertEquals(0, DirectAlignment.logicalBlockSize(0, 999_999), "no such device");
        // procfs has neither statx alignment nor a block device.
        DirectAlignment proc = DirectAlignment.of(Path.of("/proc/version"));
        assertEquals(new DirectAlignment("/proc/version", 4096, 4096, DirectAlignment.Source.DEFAULT), proc);
        assertEquals("default", proc.source().toString());
    }

    @Test
    void statxOfAMissingFileSaysSo() {
        Path missing = dir.resolve("missing");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> DirectAlignment.of(missing));
        assertTrue(e.getMessage().contains("statx") && e.getMessage().contains(missing.toString()), e.getMessage());
    }

    @Test
    void checkAcceptsAlignedRequestsAndNamesEachUnalignedPart() throws IOException {
        DirectAlignment a = new DirectAlignment("/x", 256, 512, DirectAlignment.Source.STATX);
        a.check(0x7f0000001100L, 4096, 1024);
        a.check(0, 0, 0);

        assertEquals("unaligned O_DIRECT request on /x: offset 100 is not a multiple of 512 (alignment from statx)",
                assertThrows(IOException.class, () -> a.check(0x1000, 100, 512)).getMessage());
        assertEquals("unaligned O_DIRECT request on /x: length 513 is not a multiple of 512 (alignment from statx)",
                assertThrows(IOException.class, () -> a.check(0x1000, 512, 513)).getMessage());
        assertEquals("unaligned O_DIRECT request on /x: buffer address 0x1080 is not a multiple of 256"
                        + " (alignment from statx)",
                assertThrows(IOException.class, () -> a.check(0x1080, 512, 512)).getMessage());
        String all = assertThrows(IOException.class, () -> a.check(1, 2, 3)).getMessage();
        assertTrue(all.contains("buffer address 0x1 ") && all.contains("offset 2 ") && all.contains("length 3 "), all);
    }

    @Test
    void alignmentsMustBePowersOfTwo() {
        assertThrows(IllegalArgumentException.class,
                () -> new DirectAlignment("/x", 384, 512, DirectAlignment.Source.STATX));
        assertThrows(IllegalArgumentException.class,
                () -> new DirectAlignment("/x", 512, 0, DirectAlignment.Source.STATX));
    }
}
