package org.hpio.async;

import org.hpio.internal.io.IoEngine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.zip.CRC32;

/**
 * The reliability suite's workload on one {@link AsyncFile}, with a ledger of what the caller was told: writes
 * of numbered, checksummed 4 KiB records in batches of up to eight in flight, each batch made durable either
 * by a force after its writes completed or by {@code writeArrayDurably}, and a read of an acknowledged record
 * after each batch. A record is acknowledged durable only when the promise says so (write completed, then a
 * force initiated after it succeeded; or a durable write succeeded); a record whose write or force failed is
 * lost, and stays lost even when a later force succeeds (no retry-then-trust: fsyncgate).
 *
 * <p>{@link #verify} then reads the file with a plain {@link FileChannel} (no hpio engine) and counts the
 * acknowledged bytes that did not read back bit-exact.
 */
final class DurabilityWorkload {
    static final int RECORD = 4096;
    private static final int BATCH = 8;

    enum State { PENDING, WRITTEN, DURABLE, LOST }

    /**
     * What a run told its caller. {@code errorsReported}: exceptions the caller got (from initiation or from a
     * Done method); {@code corruptReads}: reads that succeeded with wrong bytes (must be 0).
     */
    record Outcome(int records, int durable, int lost, int undecided, long errorsReported, long readErrors,
                   long corruptReads, List<String> firstErrors) {
    }

    private final long seed;
    private final State[] states;
    private final Random random;
    private long errorsReported;
    private long readErrors;
    private long corruptReads;
    private final List<String> firstErrors = new ArrayList<>();

    DurabilityWorkload(int records, long seed) {
        this.seed = seed;
        this.states = new State[records];
        Arrays.fill(states, State.PENDING);
        this.random = new Random(seed);
    }

    State[] states() {
        return states.clone();
    }

    /** Runs the workload on {@code path} (created) through {@code engine}; closes the file. */
    Outcome run(IoEngine engine, Path path) throws IOException {
        try (AsyncFile file = new AsyncFile(path, "rw", AsyncFileOptions.defaults(), engine)) {
            int batchNo = 0;
            for (int first = 0; first < states.length; first += BATCH) {
                int end = Math.min(states.length, first + BATCH);
                boolean durably = ++batchNo % 3 == 0;
                writeBatch(file, first, end, durably);
                if (!durably) {
                    force(file, first, end);
                }
                readOneBack(file);
            }
        }
        int durable = count(State.DURABLE);
        int lost = count(State.LOST);
        return new Outcome(states.length, durable, lost, states.length - durable - lost, errorsReported, readErrors,
                corruptReads, List.copyOf(firstErrors));
    }

    private void writeBatch(AsyncFile file, int first, int end, boolean durably) {
        AsyncFileRequest[] requests = new AsyncFileRequest[end - first];
        for (int i = first; i < end; i++) {
            byte[] data = record(seed, i);
            try {
                requests[i - first] = durably ? file.writeArrayDurably((long) i * RECORD, data, 0, RECORD, false)
                        : file.writeArray((long) i * RECORD, data);
            } catch (IOException e) {
                lose(i, e);
            }
        }
        for (int i = first; i < end; i++) {
            AsyncFileRequest r = requests[i - first];
            if (r == null) {
                continue;
            }
            try {
                r.done();
                states[i] = durably ? State.DURABLE : State.WRITTEN;
            } catch (IOException e) {
                r.clearException();
                lose(i, e);
            }
        }
    }

    /** A force initiated after the batch's writes completed: they become durable, or (failure) lost for good. */
    private void force(AsyncFile file, int first, int end) {
        IOException failure = null;
        try {
            AsyncFileRequest r = file.force(false);
            try {
                r.done();
            } catch (IOException e) {
                r.clearException();
                failure = e;
            }
        } catch (IOException e) {
            failure = e;
        }
        if (failure != null) {
            note(failure);
        }
        for (int i = first; i < end; i++) {
            if (states[i] == State.WRITTEN) {
                states[i] = failure == null ? State.DURABLE : State.LOST;
            }
        }
    }

    /** Reads one acknowledged record back: it must fail (reported) or return exactly its bytes. */
    private void readOneBack(AsyncFile file) {
        int[] durable = IntStream.range(0, states.length).filter(i -> states[i] == State.DURABLE).toArray();
        if (durable.length == 0) {
            return;
        }
        int i = durable[random.nextInt(durable.length)];
        byte[] got = new byte[RECORD];
        try {
            AsyncFileRequest r = file.readArray((long) i * RECORD, got);
            try {
                r.done();
            } catch (IOException e) {
                r.clearException();
                throw e;
            }
            if (!Arrays.equals(got, record(seed, i))) {
                corruptReads++;
            }
        } catch (IOException e) {
            readErrors++;
            note(e);
        }
    }

    private void lose(int record, IOException e) {
        states[record] = State.LOST;
        note(e);
    }

    private void note(IOException e) {
        errorsReported++;
        if (firstErrors.size() < 3) {
            firstErrors.add(e.toString());
        }
    }

    private int count(State s) {
        return (int) Arrays.stream(states).filter(x -> x == s).count();
    }

    /** Acknowledged-durable bytes of {@code path} that do not read back bit-exact (plain FileChannel reads). */
    long verify(Path path) throws IOException {
        long lost = 0;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            for (int i = 0; i < states.length; i++) {
                if (states[i] != State.DURABLE) {
                    continue;
                }
                ByteBuffer got = ByteBuffer.allocate(RECORD);
                while (got.hasRemaining() && channel.read(got, (long) i * RECORD + got.position()) > 0) {
                    // read on
                }
                if (got.hasRemaining() || !Arrays.equals(got.array(), record(seed, i))) {
                    lost += RECORD;
                }
            }
        }
        return lost;
    }

    /** Record {@code index} of a run with {@code seed}: index, seed, pseudo-random payload, CRC-32 of the rest. */
    static byte[] record(long seed, int index) {
        byte[] data = new byte[RECORD];
        new Random(seed * 1_000_003L + index).nextBytes(data);
        ByteBuffer b = ByteBuffer.wrap(data);
        b.putInt(0, index);
        b.putLong(4, seed);
        CRC32 crc = new CRC32();
        crc.update(data, 0, RECORD - 8);
        b.putLong(RECORD - 8, crc.getValue());
        return data;
    }

    /** Whether {@code data} is a whole, intact record number {@code index} (checksum and number agree). */
    static boolean isValidRecord(byte[] data, int index) {
        if (data.length != RECORD) {
            return false;
        }
        ByteBuffer b = ByteBuffer.wrap(data);
        CRC32 crc = new CRC32();
        crc.update(data, 0, RECORD - 8);
        return b.getLong(RECORD - 8) == crc.getValue() && b.getInt(0) == index;
    }
}
