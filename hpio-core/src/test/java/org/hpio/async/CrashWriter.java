package org.hpio.async;

import org.hpio.bulk.BulkRandomAccessFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Child main of the crash tests: {@code CrashWriter DIR SEED MAX_RECORDS MAX_PAUSE_MS} appends checksummed records
 * ({@link DurabilityWorkload#record}) to DIR/async.dat through {@link AsyncFile} (the engine -Dhpio.engine
 * picks) and to DIR/bulk.dat through {@link BulkRandomAccessFile}, in batches, until killed or MAX_RECORDS per
 * file, pausing up to MAX_PAUSE_MS between writing a batch and forcing it (other work; the window in which a
 * crash finds unsynced data). After a batch is durable by the promise (its writes completed, then a force succeeded; or each was a
 * durable write) it prints {@code D <file> <from> <to>}: records [from, to) are durable. Nothing else claims
 * durability. {@code W <file> <from> <to>} says records were written (completed, not yet durable). Any error ends the child with a stack trace (the crash tests expect none).
 */
final class CrashWriter {
    static final String ASYNC = "async.dat";
    static final String BULK = "bulk.dat";

    private CrashWriter() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        int max = Integer.parseInt(args[2]);
        int maxPause = Integer.parseInt(args[3]);
        Random random = new Random(seed);
        try (AsyncFile async = new AsyncFile(dir.resolve(ASYNC), "rw");
             BulkRandomAccessFile bulk = new BulkRandomAccessFile(dir.resolve(BULK), "rw")) {
            say("started");
            int nextAsync = 0;
            int nextBulk = 0;
            while (nextAsync < max || nextBulk < max) {
                int batch = 1 + random.nextInt(16);
                int pause = random.nextInt(maxPause + 1);
                if (nextAsync < max) {
                    nextAsync = asyncBatch(async, seed, nextAsync, Math.min(max, nextAsync + batch), random.nextBoolean(), pause);
                }
                if (nextBulk < max) {
                    nextBulk = bulkBatch(bulk, seed + 1, nextBulk, Math.min(max, nextBulk + batch), pause);
                }
            }
            say("finished");
        }
    }

    /** Some work between writing a batch and forcing it: the window in which a crash finds unsynced data. */
    private static void work(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int asyncBatch(AsyncFile file, long seed, int from, int to, boolean linked, int pause)
            throws IOException {
        List<AsyncFileRequest> requests = new ArrayList<>();
        for (int i = from; i < to; i++) {
            byte[] record = DurabilityWorkload.record(seed, i);
            long position = (long) i * DurabilityWorkload.RECORD;
            requests.add(linked ? file.writeArrayDurably(position, record, 0, record.length, false)
                    : file.writeArray(position, record));
        }
        AsyncFile.allDone(AsyncFile.TIME_INF, requests.toArray(new AsyncFileRequest[0]));
        say("W " + ASYNC + " " + from + " " + to);
        if (!linked) {
            work(pause);
            file.force(false).done();
        }
        say("D " + ASYNC + " " + from + " " + to);
        return to;
    }

    private static int bulkBatch(BulkRandomAccessFile file, long seed, int from, int to, int pause) throws IOException {
        for (int i = from; i < to; i++) {
            file.writeArray((long) i * DurabilityWorkload.RECORD, DurabilityWorkload.record(seed, i));
        }
        say("W " + BULK + " " + from + " " + to);
        work(pause);
        file.getFD().sync();
        say("D " + BULK + " " + from + " " + to);
        return to;
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
