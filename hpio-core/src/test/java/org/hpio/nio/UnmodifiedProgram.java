package org.hpio.nio;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

/**
 * Code that knows nothing of hpio: it calls only {@code AsynchronousFileChannel.open} and
 * {@code FileChannel.open} (and {@code Files}), as an existing program would. Run by
 * {@link DefaultProviderTest} in a child JVM started with
 * {@code -Djava.nio.file.spi.DefaultFileSystemProvider=org.hpio.nio.HpioFileSystemProvider}; it then reports,
 * from inside, which channels served it: {@code afc=<class> engine=<name>}, {@code fc=...}, and
 * {@code roundtrip=ok}.
 */
public final class UnmodifiedProgram {
    private UnmodifiedProgram() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args[0]);
        Path file = dir.resolve("unmodified.bin");
        byte[] data = new byte[1 << 20];
        Arrays.fill(data, (byte) 0x5a);
        data[12345] = 7;

        boolean ok;
        try (AsynchronousFileChannel afc = AsynchronousFileChannel.open(file, CREATE, READ, WRITE)) {
            report("afc", afc);
            CompletableFuture<Integer> written = new CompletableFuture<>();
            afc.write(ByteBuffer.wrap(data), 0, null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer result, Object attachment) {
                    written.complete(result);
                }

                @Override
                public void failed(Throwable exc, Object attachment) {
                    written.completeExceptionally(exc);
                }
            });
            ok = written.get(60, TimeUnit.SECONDS) == data.length;
            ByteBuffer back = ByteBuffer.allocate(data.length);
            ok &= afc.read(back, 0).get() == data.length && Arrays.equals(back.array(), data);
        }
        try (FileChannel fc = FileChannel.open(file, READ)) {
            report("fc", fc);
            ByteBuffer back = ByteBuffer.allocateDirect(data.length);
            while (back.hasRemaining() && fc.read(back) > 0) {
                // read on
            }
            byte[] got = new byte[data.length];
            back.flip().get(got);
            ok &= Arrays.equals(got, data);
        }
        try (var bc = Files.newByteChannel(file)) {
            report("bytechannel", bc);   // this platform thread's plain read-only channel: the JDK's
        }
        Thread reader = Thread.ofVirtual().start(() -> {
            try (var bc = Files.newByteChannel(file)) {
                report("vt-bytechannel", bc);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        reader.join();
        ok &= Arrays.equals(Files.readAllBytes(file), data);
        ok &= Files.list(dir).anyMatch(p -> p.getFileName().toString().equals("unmodified.bin"));
        ok &= everydayFileSystemUseWorks(dir);
        System.out.println("provider=" + file.getFileSystem().provider().getClass().getName());
        System.out.println("roundtrip=" + (ok ? "ok" : "bad"));
        writeAtExit(dir.resolve("at-exit.txt"));
    }

    /**
     * A shutdown hook that writes a file after hpio's own hook has (most likely) closed the engine, through a
     * channel opened before and one opened in the hook: both must still work.
     */
    private static void writeAtExit(Path target) throws IOException {
        FileChannel early = FileChannel.open(target, CREATE, WRITE);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Thread.sleep(300);
                early.write(ByteBuffer.wrap("early ".getBytes()));
                early.close();
                try (FileChannel late = FileChannel.open(target, WRITE, StandardOpenOption.APPEND)) {
                    late.write(ByteBuffer.wrap("late".getBytes()));
                }
            } catch (Exception e) {
                e.printStackTrace();
            }
        }));
    }

    /** What ordinary code does with files besides channels: all of it must work with the provider installed. */
    private static boolean everydayFileSystemUseWorks(Path dir) throws Exception {
        Path sub = Files.createDirectories(dir.resolve("a").resolve("b"));
        Path text = Files.writeString(sub.resolve("t.txt"), "text");
        boolean ok = Files.readString(text).equals("text");
        ok &= new File(text.toString()).toPath().equals(text);
        ok &= Path.of(text.toUri()).equals(text);
        ok &= text.toFile().exists();
        Path temp = Files.createTempFile(dir, "t", ".tmp");
        ok &= Files.isRegularFile(temp);
        try (var walk = Files.walk(dir)) {
            ok &= walk.anyMatch(p -> p.equals(text));
        }
        Path copy = Files.copy(text, dir.resolve("copy.txt"));
        Files.move(copy, dir.resolve("moved.txt"), StandardCopyOption.REPLACE_EXISTING);
        ok &= Files.exists(dir.resolve("moved.txt")) && !Files.exists(copy);
        try (InputStream in = Files.newInputStream(text); OutputStream out =
                Files.newOutputStream(dir.resolve("out.txt"))) {
            in.transferTo(out);
        }
        ok &= Files.readString(dir.resolve("out.txt")).equals("text");
        Path zip = dir.resolve("z.zip");
        try (FileSystem zipfs = FileSystems.newFileSystem(zip,
                Map.of("create", "true"))) {
            Files.writeString(zipfs.getPath("/inside.txt"), "zipped");
        }
        try (FileSystem zipfs = FileSystems.newFileSystem(zip)) {
            ok &= Files.readString(zipfs.getPath("/inside.txt")).equals("zipped");
        }
        try (WatchService watcher = dir.getFileSystem().newWatchService()) {
            dir.register(watcher, StandardWatchEventKinds.ENTRY_CREATE);
        }
        System.out.println("everyday=" + (ok ? "ok" : "bad"));
        return ok;
    }

    private static void report(String what, Object channel) {
        System.out.println(what + "=" + channel.getClass().getName() + " engine=" + HpioChannels.engineOf(channel));
    }
}
