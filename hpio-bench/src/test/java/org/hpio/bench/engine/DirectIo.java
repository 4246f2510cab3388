package org.hpio.bench.engine;

import com.sun.nio.file.ExtendedOpenOption;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Whether a directory's file system takes O_DIRECT (tmpfs does not), for tests that need it. */
final class DirectIo {
    private DirectIo() {
    }

    static boolean supported(Path dir) {
        Path probe = dir.resolve("direct-probe");
        try {
            Files.write(probe, new byte[4096]);
            try (FileChannel ignored = FileChannel.open(probe, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
                return true;
            } finally {
                Files.delete(probe);
            }
        } catch (Exception e) {
            return false;
        }
    }
}
