package org.hpio.archive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An entry of more than 2 GiB loads whole into memory: the block pipeline decodes it a piece at a time (one
 * ByteBuffer over the whole destination cannot be made, and the load failed); so does a loose file of that
 * size into the file cache. In a child JVM, whose direct memory holds them (the tests' JVM has 2 GiB); about
 * 4 GiB of memory and a few seconds.
 */
class LargeEntryTest {
    @TempDir
    Path dir;

    @Test
    void aDeflateEntryAndACachedFileOfMoreThanTwoGibibytesLoadWholeAndEveryByteIsRight() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
                "-XX:MaxDirectMemorySize=6g", "-cp", System.getProperty("java.class.path"),
                LargeEntryProgram.class.getName(), dir.resolve("big.zip").toString()))
                .redirectErrorStream(true).start();
        byte[] output;
        try {
            output = child.getInputStream().readAllBytes();
        } catch (IOException e) {
            child.destroyForcibly();
            throw e;
        }
        assertTrue(child.waitFor(300, TimeUnit.SECONDS), "the child did not end");
        String printed = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, child.exitValue(), printed);
        assertTrue(printed.strip().endsWith("OK"), printed);
    }
}
