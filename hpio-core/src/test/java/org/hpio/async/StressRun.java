package org.hpio.async;

import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;
import org.hpio.reliability.Leaks;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Child main of {@link StressTest}: {@code StressRun DIR REQUESTS THREADS FILES}. THREADS threads initiate
 * REQUESTS asynchronous requests in all (reads and writes of 512 B to 8 KiB at random places, some forces) on
 * FILES files of 1 MiB through the shared engine, each keeping up to 32 in flight, cancelling some at random
 * and waiting for others with short timeouts that expire. At the end it prints one line of key=value figures:
 * requests, cancels, timeouts, errors (unexpected ones), leaks (Leaks.since), peakRssKb, heapAfterGcKb.
 */
final class StressRun {
    private static final int FILE_BYTES = 1 << 20;
    private static final int WINDOW = 32;

    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong cancels = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final List<String> firstErrors = Collections.synchronizedList(new ArrayList<>());

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long total = Long.parseLong(args[1]);
        int threads = Integer.parseInt(args[2]);
        int fileCount = Integer.parseInt(args[3]);
        for (int i = 0; i < fileCount; i++) {
            try (RandomAccessFile f = new RandomAccessFile(dir.resolve("s" + i).toFile(), "rw")) {
                f.setLength(FILE_BYTES);
            }
        }
        IoEngine engine = IoEngines.shared();
        Leaks.Snapshot before = Leaks.snapshot();
        StressRun run = new StressRun();
        List<AsyncFile> files = new ArrayList<>();
        for (int i = 0; i < fileCount; i++) {
            files.add(new AsyncFile(dir.resolve("s" + i), "rw"));
        }
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long share = total / threads + (t < total % threads ? 1 : 0);
            long seed = t;
            workers.add(Thread.ofPlatform().name("stress-" + t).start(() -> run.work(files, share, seed)));
        }
        for (Thread w : workers) {
            w.join();
        }
        for (AsyncFile f : files) {
            f.close();
        }
        List<String> leaks = Leaks.since(before, engine);
        System.gc();
        long heap = (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) / 1024;
        System.out.println("engine=" + engine.name() + " requests=" + run.requests + " cancels=" + run.cancels
                + " timeouts=" + run.timeouts + " errors=" + run.errors + " leaks=" + leaks.size()
                + " peakRssKb=" + peakRssKb() + " heapAfterGcKb=" + heap);
        System.out.println("leakList=" + leaks + " firstErrors=" + run.firstErrors);
    }

    /** One thread's share: a window of requests, each with its own array, reused once its request settled. */
    private void work(List<AsyncFile> files, long count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        AsyncFileRequest[] window = new AsyncFileRequest[WINDOW];
        byte[][] arrays = new byte[WINDOW][8192];
        int slot = 0;
        for (long n = 0; n < count; n++) {
            slot = (slot + 1) % WINDOW;
            settle(window, slot, random);
            AsyncFile file = files.get(random.nextInt(files.size()));
            int size = 512 + random.nextInt(8192 - 512 + 1);
            long position = random.nextLong(FILE_BYTES - size + 1);
            try {
                int kind = random.nextInt(100);
                AsyncFileRequest r = kind < 48 ? file.writeArray(position, arrays[slot], 0, size)
                        : kind < 98 ? file.readArray(position, arrays[slot], 0, size)
                        : file.force(false);
                requests.incrementAndGet();
                if (random.nextInt(100) < 3) {
                    r.cancel();
                }
                window[slot] = r;
            } catch (IOException e) {
                error(e);
            }
        }
        for (int i = 0; i < WINDOW; i++) {
            while (window[i] != null) {
                settle(window, i, random);
            }
        }
    }

    /** Waits for the request in {@code slot} (a random short timeout first, which may expire) and retires it. */
    private void settle(AsyncFileRequest[] window, int slot, SplittableRandom random) {
        AsyncFileRequest r = window[slot];
        if (r == null) {
            return;
        }
        try {
            boolean done = r.done(random.nextInt(3) == 0 ? 0 : 1);
            if (!done) {
                timeouts.incrementAndGet();
                r.done();
            }
        } catch (AsyncIOCanceledException e) {
            cancels.incrementAndGet();
            r.clearException();
        } catch (IOException e) {
            r.clearException();
            error(e);
        }
        window[slot] = null;
    }

    private void error(IOException e) {
        errors.incrementAndGet();
        if (firstErrors.size() < 3) {
            firstErrors.add(e.toString());
        }
    }

    private static long peakRssKb() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("VmHWM:"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).findFirst().orElse(-1);
    }
}
