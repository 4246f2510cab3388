package org.hpio.internal.sys;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.hpio.internal.sys.CStructOffsets.offsetof;
import static org.hpio.internal.sys.CStructOffsets.sizeof;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** FileSystemType against this machine's mounts (/proc, /sys, the temporary directory) and the C headers. */
class FileSystemTypeTest {
    @TempDir
    Path dir;

    @Test
    void magicNumbersAndTheStatfsStructMatchTheHeaders() {
        List<String> expressions = new ArrayList<>(FileSystemType.PSEUDO_MAGICS.keySet());
        expressions.add(sizeof("struct statfs"));
        expressions.add(offsetof("struct statfs", "f_type"));
        Map<String, Long> c = CStructOffsets.evaluate(List.of("linux/magic.h", "sys/vfs.h", "stddef.h"), expressions);
        FileSystemType.PSEUDO_MAGICS.forEach((name, magic) ->
                assertEquals(c.get(name), Integer.toUnsignedLong(magic), name));
        assertTrue(c.get(sizeof("struct statfs")) <= FileSystemType.STATFS_BYTES, "sizeof(struct statfs)");
        assertEquals(0L, c.get(offsetof("struct statfs", "f_type")));
    }

    @Test
    void procAndSysArePseudoAndTheTemporaryDirectoryIsNot() throws IOException {
        int proc = FileSystemType.of("/proc/self/status");
        assertEquals(FileSystemType.PSEUDO_MAGICS.get("PROC_SUPER_MAGIC"), proc);
        assertTrue(FileSystemType.isPseudo(proc));
        assertTrue(FileSystemType.isPseudo(FileSystemType.of("/sys")));
        Path file = Files.write(dir.resolve("data"), new byte[10]);
        int tmp = FileSystemType.of(file.toString());
        assertFalse(FileSystemType.isPseudo(tmp), Integer.toHexString(tmp));
    }

    @Test
    void anOpenDescriptorsFileSystemIsTheOneItsNameLeadsTo() throws IOException {
        for (String name : List.of("/proc/self/status", dir.toString())) {
            int fd = Syscalls.open(name, Syscalls.O_RDONLY, 0);
            try {
                int magic = FileSystemType.of(fd, name);
                assertEquals(FileSystemType.of(name), magic, name);
                assertEquals(name.startsWith("/proc/"), FileSystemType.isPseudo(magic), name);
            } finally {
                Syscalls.close(fd, name);
            }
        }
    }

    @Test
    void statxTellsRegularFilesAndFilesWithoutADeviceOfTheirOwn() throws IOException {
        Path file = Files.write(dir.resolve("data"), new byte[10]);
        assertTrue(Statx.of(file.toString(), Statx.STATX_TYPE).isRegularFile());
        assertFalse(Statx.of(dir.toString(), Statx.STATX_TYPE).isRegularFile(), "a directory");
        assertFalse(Statx.of("/dev/null", Statx.STATX_TYPE).isRegularFile(), "a device");
        Statx proc = Statx.of("/proc/self/status", Statx.STATX_TYPE);
        assertTrue(proc.isRegularFile(), "a /proc file is regular by its mode");
        assertTrue(proc.onAnonymousDevice(), "procfs has no device of its own");
    }

    @Test
    void aMissingPathIsAnErrorNamingIt() {
        Path missing = dir.resolve("missing");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> FileSystemType.of(missing.toString()));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }
}
