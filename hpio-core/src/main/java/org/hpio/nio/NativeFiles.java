package org.hpio.nio;

import org.hpio.internal.sys.NativeFile;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.spi.FileSystemProvider;

/** hpio's own descriptor beside the JDK's channel on the same file. */
final class NativeFiles {
    private NativeFiles() {
    }

    /**
     * Whether {@code path} (already opened by the JDK's channel) is a regular file: only those get hpio's
     * engine, whose positional requests a pipe, a device or a /proc file may not take.
     */
    static boolean isRegularFile(FileSystemProvider jdkProvider, Path path) throws IOException {
        return jdkProvider.readAttributes(path, BasicFileAttributes.class).isRegularFile();
    }

    /**
     * Opens hpio's descriptor on the file the JDK's channel just opened (and created or truncated, as its
     * options said), with the access mode and O_DIRECT/O_DSYNC/O_SYNC of {@code options}. DELETE_ON_CLOSE
     * unlinks the name now, as the JDK's channel does on Linux: both descriptors keep the file until closed.
     * The second open goes by the same name right after the first: a rename of that name in between (by
     * another process) would give the two descriptors different files, as any two opens of a name can.
     */
    static NativeFile open(FileSystemProvider jdkProvider, Path path, ChannelOptions options) throws IOException {
        NativeFile file = NativeFile.open(path, options.nativeFlags());
        if (options.deleteOnClose()) {
            try {
                jdkProvider.deleteIfExists(path);
            } catch (IOException | RuntimeException e) {
                file.close();
                throw e;
            }
        }
        return file;
    }

}
