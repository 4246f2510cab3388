package org.hpio.bench.sort;

/**
 * Where one run of the initial pass spends its time (000 Table 2's columns), accumulated as the run goes. Each
 * method adds the time since {@code since} (a {@link System#nanoTime()}) to its column and returns now, so the
 * instrumented code reads {@code t = times.read(t)} at the end of each line. One thread uses it.
 */
public final class SortTimes {
    private long read;
    private long write;
    private long sort;
    private long block;

    public static long now() {
        return System.nanoTime();
    }

    public long read(long since) {
        long now = now();
        read += now - since;
        return now;
    }

    public long write(long since) {
        long now = now();
        write += now - since;
        return now;
    }

    public long sort(long since) {
        long now = now();
        sort += now - since;
        return now;
    }

    public long block(long since) {
        long now = now();
        block += now - since;
        return now;
    }

    /** The columns, with {@code total} measured around the whole run (opening and closing the files included). */
    public Breakdown breakdown(long totalNanos) {
        return new Breakdown(totalNanos / 1e9, read / 1e9, write / 1e9, sort / 1e9, block / 1e9);
    }

    /**
     * One run's figures in seconds, as 000 Table 2: total time, and the time spent reading, writing, sorting and
     * (asynchronous configurations) blocked waiting for requests.
     */
    public record Breakdown(double total, double read, double write, double sort, double block) {
        /** Read + write time: the I/O that the bulk and C rows are compared on. */
        public double io() {
            return read + write;
        }
    }
}
