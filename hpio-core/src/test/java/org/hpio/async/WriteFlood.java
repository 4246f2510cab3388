package org.hpio.async;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * 003's experiment, run in a child JVM with a small heap: {@code files} files of {@code megabytes} MB each,
 * written from fresh heap arrays without waiting for any write, then all awaited. With
 * AsynchronousFileChannel the heap buffers pile up until OutOfMemoryError; here the staging bound makes
 * initiation wait instead. Prints the process's peak resident memory (VmHWM, kB) and exits 0 on success.
 */
public final class WriteFlood {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int files = Integer.parseInt(args[1]);
        int megabytes = Integer.parseInt(args[2]);
        List<AsyncFile> open = new ArrayList<>();
        List<AsyncFileRequest> requests = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            byte[] data = new byte[megabytes * 1_000_000];
            data[0] = (byte) i;
            AsyncFile f = new AsyncFile(dir.resolve("flood-" + i), "rw");
            open.add(f);
            requests.add(f.writeArray(data));   // no waiting
        }
        AsyncFile.allDone(AsyncFile.TIME_INF, requests.toArray(AsyncFileRequest[]::new));
        for (AsyncFile f : open) {
            f.close();
            if (Files.size(f.path()) != megabytes * 1_000_000L) {
                throw new AssertionError(f.path() + " has " + Files.size(f.path()) + " bytes");
            }
        }
        String hwm = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("VmHWM:")).findFirst().orElse("VmHWM: -1 kB");
        System.out.println(hwm.replaceAll("\\D+", " ").trim());
    }
}
