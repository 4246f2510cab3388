package org.hpio.nio;

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A child JVM's program (run by {@link DefaultProviderTest} with hpio's provider installed and no warm-up thread):
 * between {@code first-channels-begin} and {@code first-channels-done}, its first channels, opened, used and closed
 * as if while the warm-up links hpio's native calls. The test reads the JVM's class-loading log between the two: a channel opened
 * then is served by the JDK's channel, and none of it may start the Foreign Function API, whose start-up (10-13
 * ms of a cold JVM) would fall on the program's first call beside the warm-up.
 */
public final class FirstOpenProgram {
    private FirstOpenProgram() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("first-channels-begin");
        Path dir = Path.of(args[0]);
        NativeFiles.warmingUpForTests(true);   // as while a warm-up links the calls (this JVM runs none)
        try (FileChannel in = FileChannel.open(dir.resolve("first.txt"))) {
            ByteBuffer buffer = ByteBuffer.allocate(64);
            in.read(buffer, 0);
            System.out.println("read=" + new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8)
                    + " channel=" + in);
        }
        try (FileChannel out = FileChannel.open(dir.resolve("written.txt"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            out.write(ByteBuffer.wrap("written".getBytes(StandardCharsets.UTF_8)));
            out.force(true);
        }
        try (AsynchronousFileChannel async = AsynchronousFileChannel.open(dir.resolve("first.txt"))) {
            System.out.println("async-read=" + async.read(ByteBuffer.allocate(64), 0).get());
        }
        FileChannel.open(dir.resolve("first.txt"));   // dropped unclosed: watched without the FFM API
        System.out.println("first-channels-done");
        NativeFiles.warmingUpForTests(false);
    }
}
