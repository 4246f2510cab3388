package org.hpio.internal.sys;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Errno: messages name the errno and the path (and the offset when there is one); typed NIO exceptions. */
class ErrnoTest {
    @TempDir
    Path dir;

    @Test
    void describeGivesNameAndMeaning() {
        assertEquals("ENOSPC (no space left on device)", Errno.describe(Errno.ENOSPC));
        assertTrue(Errno.describe(Errno.EBADF).startsWith("EBADF"));
        assertEquals("errno 9999", Errno.describe(9999));
    }

    @Test
    void exceptionNamesErrnoPathOperationAndOffset() {
        IOException e = Errno.exception("pwrite", Errno.ENOSPC, "/data/out.bin", 4_294_967_296L + 5);
        FileSystemException fse = assertInstanceOf(FileSystemException.class, e);
        assertEquals("/data/out.bin", fse.getFile());
        String m = e.getMessage();
        assertTrue(m.contains("ENOSPC"), m);
        assertTrue(m.contains("/data/out.bin"), m);
        assertTrue(m.contains("pwrite"), m);
        assertTrue(m.contains("4294967301"), "the 64-bit offset: " + m);

        String noOffset = Errno.exception("open", Errno.EMFILE, "/x", -1).getMessage();
        assertTrue(noOffset.contains("EMFILE") && noOffset.contains("/x"), noOffset);
        assertFalse(noOffset.contains("offset"), noOffset);
    }

    @Test
    void nioTypesForMissingFilesAndPermissions() {
        assertInstanceOf(NoSuchFileException.class, Errno.exception("open", Errno.ENOENT, "/nope", -1));
        assertInstanceOf(AccessDeniedException.class, Errno.exception("open", Errno.EACCES, "/root/x", -1));
        assertInstanceOf(AccessDeniedException.class, Errno.exception("open", Errno.EPERM, "/root/x", -1));
        IOException other = Errno.exception("pread", Errno.EIO, "/disk", 0);
        assertInstanceOf(FileSystemException.class, other);
        assertEquals(Errno.EIO, ((ErrnoException) other).errno());
        assertEquals(Errno.EIO, Errno.of(other));
        assertTrue(other.getMessage().contains("EIO") && other.getMessage().contains("at offset 0"), other.getMessage());
    }

    /** Real system-call failures go through Errno: ENOENT, EISDIR and EBADF, each naming the file. */
    @Test
    void realFailuresCarryTheErrnoNameAndPath() throws IOException {
        Path missing = dir.resolve("missing.bin");
        NoSuchFileException e = assertThrows(NoSuchFileException.class,
                () -> NativeFile.open(missing, Syscalls.O_RDONLY));
        assertTrue(e.getMessage().contains("ENOENT") && e.getMessage().contains(missing.toString()), e.getMessage());

        FileSystemException dirError = assertThrows(FileSystemException.class,
                () -> NativeFile.open(dir, Syscalls.O_RDWR));
        assertTrue(dirError.getMessage().contains("EISDIR") && dirError.getMessage().contains(dir.toString()),
                dirError.getMessage());

        Path file = dir.resolve("write-only.bin");
        Files.write(file, new byte[16]);
        try (NativeFile f = NativeFile.open(file, Syscalls.O_WRONLY)) {
            IOException badf = assertThrows(IOException.class,
                    () -> f.read(MemorySegment.ofArray(new byte[8]), 8));
            assertTrue(badf.getMessage().contains("EBADF"), badf.getMessage());
            assertTrue(badf.getMessage().contains(file.toString()), badf.getMessage());
            assertTrue(badf.getMessage().contains("offset 8"), badf.getMessage());
        }
    }
}
