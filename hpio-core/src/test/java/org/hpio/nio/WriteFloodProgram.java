package org.hpio.nio;

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;

/**
 * 003's OutOfMemoryError experiment, in Java, knowing nothing of hpio: FILES files of MB megabytes, each
 * written by one AsynchronousFileChannel write of a fresh heap buffer, submitted without waiting, handlers
 * on a single-thread executor. Then every byte of every file is checked, and the peak resident memory
 * printed ({@code peakKb=N}). {@code WriteFloodProgram DIR FILES MB}.
 */
public final class WriteFloodProgram {
    private WriteFloodProgram() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args[0]);
        int files = Integer.parseInt(args[1]);
        int bytes = Integer.parseInt(args[2]) * 1_000_000;
        ExecutorService executor = Executors.newSingleThreadExecutor();
        List<AsynchronousFileChannel> channels = new ArrayList<>();
        List<CompletableFuture<Integer>> written = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            AsynchronousFileChannel ch = AsynchronousFileChannel.open(dir.resolve(i + ".bin"),
                    Set.of(WRITE, CREATE, TRUNCATE_EXISTING), executor);
            if (i == 0) {
                System.out.println("channel=" + ch.getClass().getName());
            }
            channels.add(ch);
            CompletableFuture<Integer> promise = new CompletableFuture<>();
            ch.write(ByteBuffer.wrap(pattern(i, bytes)), 0, null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer result, Object attachment) {
                    promise.complete(result);
                }

                @Override
                public void failed(Throwable exc, Object attachment) {
                    promise.completeExceptionally(exc);
                }
            });
            written.add(promise);
        }
        for (CompletableFuture<Integer> w : written) {
            if (w.join() != bytes) {
                throw new AssertionError("a short write: " + w.join());
            }
        }
        for (AsynchronousFileChannel ch : channels) {
            ch.close();
        }
        executor.shutdown();
        for (int i = 0; i < files; i++) {
            if (!Arrays.equals(Files.readAllBytes(dir.resolve(i + ".bin")), pattern(i, bytes))) {
                throw new AssertionError("file " + i + " does not hold what was written");
            }
        }
        String hwm = Files.readAllLines(Paths.get("/proc/self/status")).stream()
                .filter(l -> l.startsWith("VmHWM:")).findFirst().orElse("VmHWM: -1 kB");
        System.out.println("checked=" + files + " files");
        System.out.println("peakKb=" + hwm.replaceAll("\\D+", " ").trim());
    }

    private static byte[] pattern(int file, int bytes) {
        byte[] data = new byte[bytes];
        for (int j = 0; j < bytes; j += 4096) {
            data[j] = (byte) (file + j / 4096);
        }
        data[bytes - 1] = (byte) file;
        return data;
    }
}
