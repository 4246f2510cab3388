package org.hpio.archive;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.NoSuchFileException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Loads a list of an archive's files, known in advance, in that order, working ahead of the caller: the next
 * files' reads are in flight, and they are decoded (inflated, CRC-checked) on other cores, while the caller
 * works on the current one. A trace-ordered archive (002 §3.3) lays out files loaded one after the other next to
 * each other; the loader reads such neighbours together, in one read of up to {@link LookAhead#readBytes()}
 * (fewer, larger requests than one per file: 002 §3.1's "the disk is always busy"), and inflates each whole
 * ({@link WholeEntryDecoder}: libdeflate when the system has it). This is 002 §3.2's overlap of I/O and
 * decompression taken from blocks of one file to whole files of a known sequence.
 *
 * <pre>{@code
 * try (ArchiveLoader loader = archive.loader(paths, LookAhead.defaults())) {
 *     while (loader.hasNext()) {
 *         try (LoadedFile f = loader.next()) {
 *             use(f.buffer());
 *         }
 *     }
 * }
 * }</pre>
 *
 * <h2>Repeats</h2>
 * A file the list loads more than once is read (and inflated, and checked) once while the loader can keep it
 * ({@link LookAhead#reuse()}): a later position shares the memory of the earlier one, which the loader holds
 * after delivering it, within {@link LookAhead#bytes()} (counted as whole reads), dropping first the file whose
 * next load is furthest away (Belady's rule, exact since the list is known). A dropped file is read again when
 * its turn comes. This is 002 §3.5's file cache for a load sequence known in advance. A later position of a file
 * whose earlier load failed (or was interrupted) loads it again by itself.
 *
 * <h2>Guarantees</h2>
 * Each file is delivered in list order and checked as {@link Archive#load} checks it (local header, sizes,
 * CRC-32); a file that cannot be loaded (no such entry, damaged, a failed read) makes {@link #next()} throw for
 * that position, naming the entry, and the following positions still load. Memory: the loader holds at most
 * {@link LookAhead#files()} files and {@link LookAhead#bytes()} bytes ahead of the caller (one larger file only
 * alone). Reads use the loader's own handle of the archive's file (closed by {@link #close()}).
 *
 * <h2>Ownership</h2>
 * A delivered {@link LoadedFile} is the caller's, to close (any thread, any order). Its memory is part of the
 * {@link ReadRun} it was read with, which is freed when every file of that run is closed: one file kept open
 * keeps its neighbours' memory (at most the read size plus their inflated contents). {@link #close()} (also
 * before the end: cancelling) waits for the workers and the reads in flight and frees every file not delivered;
 * delivered files stay valid.
 *
 * <p>One caller thread at a time uses {@link #next()}; the workers are the loader's own daemon threads.
 */
public final class ArchiveLoader implements AutoCloseable {
    /** Reads the loader keeps in flight at most (its file handle allows twice as many). */
    static final int MAX_PIECES_IN_FLIGHT = 32;
    /** Positions in the window at most, per file of {@link LookAhead#files()} (those reusing memory count here). */
    static final int SLOTS_PER_FILE = 4;

    /** One position of the list. Fields are guarded by the loader's lock, except while a thread decodes it. */
    private static final class Slot {
        final String path;
        /** The entry name the path stands for (what repeats are matched by). */
        final String key;
        final int position;
        ArchiveEntry entry;
        ReadRun run;
        long cost;
        long outputOffset = -1;
        boolean claimed;
        boolean decoded;
        LoadedFile file;
        IOException failure;
        /** The earlier position whose memory this one reuses (it reads nothing itself), or null. */
        Slot source;
        /** Later positions may reuse this one's memory: once loaded, the loader holds a reference to its run. */
        boolean holder;
        /** That reference is held (the load succeeded and it was not yet given back). */
        boolean holding;
        /** The held run's memory is counted in the loader's kept bytes (from this slot's delivery on). */
        boolean counted;
        /** The last admitted position that reuses this one's memory (its own position at first). */
        int lastUse;
        /** The checked contents, read-only, for the positions that reuse them. */
        MemorySegment contents;

        /** Loaded by {@link Archive#load} after its run's read failed: its memory is not the run's. */
        boolean standalone;

        Slot(String path, String key, int position) {
            this.path = path;
            this.key = key;
            this.position = position;
            this.lastUse = position;
        }
    }

    private final Archive archive;
    private final String archiveName;
    private final List<String> paths;
    private final LookAhead lookAhead;
    private final BlockIo io;
    private final boolean nativeInflate;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a position is decoded while the caller waits for it. */
    private final Condition decoded = lock.newCondition();
    /** Signalled when positions are admitted (work for the workers) and at close. */
    private final Condition admittedMore = lock.newCondition();
    private boolean callerWaiting;
    private int idleWorkers;
    private final ArrayDeque<Slot> window = new ArrayDeque<>();
    private final ArrayDeque<ReadRun.Piece> unstarted = new ArrayDeque<>();
    private final ArrayDeque<ReadRun.Piece> started = new ArrayDeque<>();
    private final List<Thread> workers = new ArrayList<>();
    private int admitted;
    private int delivered;
    private long windowBytes;
    /** Positions in the window that read (or decode) their own file: what {@link LookAhead#files()} bounds. */
    private int aheadFiles;
    private boolean closed;
    /** For each position, the next one with the same path, or -1 (all -1 without reuse). */
    private final int[] nextUse;
    /** By path: the position whose memory later positions of that path reuse. */
    private final Map<String, Slot> holders = new HashMap<>();
    /** Delivered holders no admitted position reuses yet, by the position that will: the ones memory may drop. */
    private final TreeMap<Integer, Slot> idle = new TreeMap<>();
    /** Memory of the runs held for reuse after their holder's delivery, each run counted once. */
    private long keptBytes;
    /** The part of {@link #keptBytes} that dropping every idle holder would free (runs only idle holders keep). */
    private long freeableBytes;
    /** Each position's key ({@link Slot#key}). */
    private final String[] keys;

    ArchiveLoader(Archive archive, List<String> paths, LookAhead lookAhead) throws IOException {
        LoadOptions options = archive.options();
        if (lookAhead.readBytes() < options.blockSize()) {
            throw new IllegalArgumentException("read size " + lookAhead.readBytes() + " is below the block size "
                    + options.blockSize());
        }
        this.archive = archive;
        this.archiveName = archive.path().toString();
        this.paths = List.copyOf(paths);
        this.lookAhead = lookAhead;
        this.nativeInflate = options.inflation() == LoadOptions.Inflation.WHOLE;
        this.keys = this.paths.stream().map(ArchiveLoader::key).toArray(String[]::new);
        this.nextUse = nextUses(keys, lookAhead.reuse());
        this.io = BlockIo.open(archive.path(), options.withQueueDepth(MAX_PIECES_IN_FLIGHT), false);
        try {
            lock.lock();
            try {
                refill();
            } finally {
                lock.unlock();
            }
            for (int i = 0; i < lookAhead.workers(); i++) {
                Thread t = Thread.ofPlatform().daemon().name("hpio-loader-" + i).unstarted(this::work);
                workers.add(t);
                t.start();
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    /** The entry name {@code path} stands for; a path that names no entry is its own key (it fails to load). */
    private static String key(String path) {
        try {
            return EntryNames.of(path);
        } catch (IllegalArgumentException e) {
            return "\0" + path;
        }
    }

    /** For each position the next with the same key, or -1; all -1 when nothing is reused. */
    private static int[] nextUses(String[] keys, boolean reuse) {
        int[] next = new int[keys.length];
        java.util.Arrays.fill(next, -1);
        if (reuse) {
            Map<String, Integer> later = new HashMap<>();
            for (int i = keys.length - 1; i >= 0; i--) {
                Integer j = later.put(keys[i], i);
                next[i] = j == null ? -1 : j;
            }
        }
        return next;
    }

    /** Whether a position is left. */
    public boolean hasNext() {
        return delivered < paths.size();
    }

    /** The position {@link #next()} delivers (0 first). */
    public int position() {
        return delivered;
    }

    /**
     * The next file of the list, loaded and checked; owned by the caller, who closes it.
     *
     * @throws NoSuchElementException after the last
     * @throws NoSuchFileException when the archive holds no file at this position's path
     * @throws ArchiveFormatException when this position's entry is damaged, naming it
     * @throws IOException when reading this position's entry failed, naming it; the position is used up either
     *                     way, and the next call goes on with the next one
     * @throws IllegalStateException after {@link #close()}
     */
    public LoadedFile next() throws IOException {
        Slot head;
        boolean mine;
        boolean alone;
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the loader of " + archiveName + " is closed");
            }
            if (!hasNext()) {
                throw new NoSuchElementException("all " + paths.size() + " files of " + archiveName
                        + " were delivered");
            }
            refill();
            head = window.peekFirst();
            mine = !head.claimed;
            head.claimed = true;
        } finally {
            lock.unlock();
        }
        if (mine) {
            decode(head);
        }
        lock.lock();
        try {
            while (!head.decoded) {
                callerWaiting = true;
                decoded.awaitUninterruptibly();
                callerWaiting = false;
            }
            window.pollFirst();
            delivered++;
            windowBytes -= head.cost;
            aheadFiles -= head.source == null ? 1 : 0;
            alone = head.source != null && !reuse(head);
            afterDelivery(head);
            refill();
            if (!alone) {
                if (head.failure != null) {
                    throw head.failure;
                }
                return head.file;
            }
        } finally {
            lock.unlock();
        }
        try {
            return loadAlone(head.source);
        } catch (RuntimeException e) {
            throw new IOException("entry " + head.path + " of " + archiveName + ": " + e, e);
        }
    }

    /**
     * Loads {@code like}'s entry by itself, in a read of its own through the loader's handle (queued ahead of the
     * window's reads), for a position whose earlier load failed, was interrupted or was not kept, or whose read
     * of neighbours failed. Not kept for reuse; a failure of this read is final.
     */
    private LoadedFile loadAlone(Slot like) throws IOException {
        Slot alone = new Slot(like.path, like.key, like.position);
        alone.entry = like.entry;
        alone.standalone = true;
        lock.lock();
        try {
            long start = alone.entry.localHeaderOffset();
            queueRun(List.of(alone), start, start + span(alone.entry), true);
            startPieces();
        } finally {
            lock.unlock();
        }
        return load(alone);
    }

    /**
     * Admits positions into the window once it has drained far enough for a batch (half its files with a
     * quarter of its bytes free, or the other way round), so that neighbours are admitted, and read, together;
     * forms their runs and starts reads. Positions that reuse an earlier one's memory count no file and no byte.
     * The window may take memory from kept files (those needed again last first) up to half the look-ahead's
     * bytes; beyond that, only what they leave free. Holds the lock.
     */
    private void refill() {
        long share = lookAhead.bytes() / 2;
        int fileRoom = lookAhead.files() - aheadFiles;
        long byteRoom = share - windowBytes;
        int slots = SLOTS_PER_FILE * lookAhead.files();
        boolean low = window.isEmpty() || window.size() <= slots / 2
                && (fileRoom >= lookAhead.files() / 2 && byteRoom >= share / 4
                || byteRoom >= share / 2 && fileRoom >= lookAhead.files() / 4);
        if (admitted < paths.size() && fileRoom > 0 && low) {
            List<Slot> batch = new ArrayList<>();
            while (admitted < paths.size() && aheadFiles < lookAhead.files() && window.size() < slots) {
                Slot s = new Slot(paths.get(admitted), keys[admitted], admitted);
                Slot from = reusable(s.key);
                if (from != null) { // nothing to read: it shares the memory of an earlier position
                    s.source = from;
                    s.entry = from.entry;
                    s.claimed = true;
                    s.decoded = true;
                    Slot wasIdle = idle.remove(admitted);
                    if (wasIdle != null) {
                        count(wasIdle.run, 0, -1);
                    }
                    from.lastUse = admitted;
                } else {
                    resolve(s);
                    // Drop kept files (the one needed again last first, Belady) only where that makes room: always
                    // for a window gone empty, else within the window's share.
                    boolean drop = window.isEmpty() || windowBytes + s.cost <= share
                            && windowBytes + keptBytes - freeableBytes + s.cost <= lookAhead.bytes();
                    var farthestFirst = idle.descendingMap().values().iterator();
                    while (drop && windowBytes + keptBytes + s.cost > lookAhead.bytes() && farthestFirst.hasNext()) {
                        Slot dropped = farthestFirst.next();
                        if (dropped.run.idleHolds < dropped.run.loaderHolds) {
                            continue; // a holder of its run that is not idle keeps the run: dropping frees nothing
                        }
                        farthestFirst.remove();
                        count(dropped.run, 0, -1);
                        release(dropped);
                    }
                    if (!window.isEmpty() && windowBytes + keptBytes + s.cost > lookAhead.bytes()) {
                        break;
                    }
                    if (s.failure == null) {
                        batch.add(s);
                        if (nextUse[admitted] >= 0) {
                            s.holder = true;
                            holders.put(s.key, s);
                        }
                    }
                }
                admitted++;
                window.addLast(s);
                windowBytes += s.cost;
                aheadFiles += s.source == null ? 1 : 0;
            }
            formRuns(batch);
            if (idleWorkers > 0) {
                admittedMore.signalAll();
            }
        }
        startPieces();
    }

    /**
     * The position whose memory a new position with {@code key} can reuse, or null (one whose load failed, or was
     * not kept, is forgotten).
     */
    private Slot reusable(String key) {
        Slot h = holders.get(key);
        if (h != null && h.decoded && !h.holding) {
            holders.remove(key);
            return null;
        }
        return h;
    }

    /**
     * Gives {@code head} (a reusing position) a view of its source's memory; false when the source holds none
     * (its load failed, was interrupted, or came from a fallback), and the caller loads the file by itself.
     */
    private boolean reuse(Slot head) {
        Slot from = head.source;
        if (!from.holding) {
            return false;
        }
        from.run.retain();
        head.file = new LoadedFile(from.entry.name(), from.contents, from.run::release);
        io.countLoad(from.contents.byteSize());
        return true;
    }

    /**
     * Changes a run's counts of holders kept (delivered) and idle, keeping {@link #keptBytes} (runs with a kept
     * holder) and {@link #freeableBytes} (runs whose kept holders are all idle) in step.
     */
    private void count(ReadRun run, int kept, int idleHolders) {
        long size = run.memory.byteSize();
        boolean wasKept = run.loaderHolds > 0;
        boolean wasFreeable = wasKept && run.idleHolds == run.loaderHolds;
        run.loaderHolds += kept;
        run.idleHolds += idleHolders;
        boolean isKept = run.loaderHolds > 0;
        boolean isFreeable = isKept && run.idleHolds == run.loaderHolds;
        keptBytes += isKept == wasKept ? 0 : isKept ? size : -size;
        freeableBytes += isFreeable == wasFreeable ? 0 : isFreeable ? size : -size;
    }

    /**
     * After delivering {@code head}: the memory it or its source holds for later positions starts counting
     * against the look-ahead's bytes, and is dropped, or becomes droppable, once no admitted position needs it.
     */
    private void afterDelivery(Slot head) {
        Slot h = head.source != null ? head.source : head.holder ? head : null;
        if (h == null) {
            return;
        }
        if (h.holding && !h.counted) {
            h.counted = true;
            count(h.run, 1, 0);
        }
        if (h.lastUse == head.position) {
            int next = nextUse[head.position];
            if (h.holding && next >= 0) {
                idle.put(next, h);
                count(h.run, 0, 1);
            } else {
                release(h);
            }
        }
    }

    /** Gives back the reference {@code h} holds for reuse; its later positions will read the file again. */
    private void release(Slot h) {
        holders.remove(h.key, h);
        if (h.holding) {
            h.holding = false;
            if (h.counted) {
                count(h.run, -1, 0);
            }
            h.run.release();
        }
    }

    /** Finds the slot's entry and its cost, or records why it cannot be loaded. */
    private void resolve(Slot s) {
        try {
            ArchiveEntry e = archive.requireFile(s.path);
            archive.checkReadable(e);
            checkFits(e);
            s.entry = e;
            long span = span(e);
            s.cost = span + (e.method() != ZipFormat.STORED ? e.uncompressedSize() : 0);
        } catch (IOException e) {
            s.failure = e;
            s.decoded = true;
            s.claimed = true;
        }
    }

    /**
     * The entry's data must fit between its local header and the next entry (Archive.load's dataOffset checks
     * this once it has read the header; the loader sizes its memory before that, so it checks the bound the
     * directory alone gives): an entry whose sizes lie is refused before anything is allocated for it.
     */
    private void checkFits(ArchiveEntry e) throws IOException {
        long room = archive.spanEnd(e) - e.localHeaderOffset() - ZipFormat.LOCAL_HEADER_SIZE;
        if (e.compressedSize() > room) {
            throw new ArchiveFormatException(archiveName, "entry " + e.name() + " claims " + e.compressedSize()
                    + " bytes of data at local header offset " + e.localHeaderOffset() + " but only " + Math.max(0, room)
                    + " fit before the next entry");
        }
    }

    /** Bytes a load of {@code e} reads: its local header (at most 64 KiB of name and extra each) and data. */
    private long span(ArchiveEntry e) {
        long end = Math.min(archive.spanEnd(e),
                e.localHeaderOffset() + ZipFormat.LOCAL_HEADER_SIZE + 2 * 0xFFFFL + e.compressedSize());
        return Math.max(0, end - e.localHeaderOffset());
    }

    /** Groups the batch's slots into runs of neighbours (adjacent in the file, in list order) and queues them. */
    private void formRuns(List<Slot> batch) {
        int i = 0;
        while (i < batch.size()) {
            int j = i + 1;
            long start = batch.get(i).entry.localHeaderOffset();
            long end = start + span(batch.get(i).entry);
            while (j < batch.size()) {
                ArchiveEntry next = batch.get(j).entry;
                long nextEnd = next.localHeaderOffset() + span(next);
                if (next.localHeaderOffset() != end || nextEnd - start > lookAhead.readBytes()) {
                    break;
                }
                end = nextEnd;
                j++;
            }
            queueRun(batch.subList(i, j), start, end, false);
            i = j;
        }
    }

    private void queueRun(List<Slot> slots, long start, long end, boolean first) {
        int align = io.offsetAlignment();
        long from = start - start % align;
        long to = Math.min(io.fileSize(), (end + align - 1) / align * align);
        long extra = 0;
        for (Slot s : slots) {
            if (s.entry.method() != ZipFormat.STORED) {
                s.outputOffset = to - from + extra;
                extra += (s.entry.uncompressedSize() + 63) & ~63L;
            }
        }
        ReadRun run = new ReadRun(from, Math.max(to, from), extra, lookAhead.readBytes(), slots.size(), io,
                archiveName);
        for (Slot s : slots) {
            s.run = run;
        }
        if (first) {
            for (int i = run.pieces().size() - 1; i >= 0; i--) {
                unstarted.addFirst(run.pieces().get(i));
            }
        } else {
            unstarted.addAll(run.pieces());
        }
    }

    /** Retires finished reads and starts queued ones, in order, up to the bound. Holds the lock. */
    private void startPieces() {
        while (!started.isEmpty() && ReadRun.isFinished(started.peekFirst())) {
            started.pollFirst();
        }
        while (!unstarted.isEmpty() && started.size() < MAX_PIECES_IN_FLIGHT) {
            ReadRun.Piece p = unstarted.pollFirst();
            ReadRun.start(p, io);
            started.addLast(p);
        }
    }

    /** Waits until every piece of {@code run} has been started, helping older reads along. */
    private void ensureStarted(ReadRun run) throws IOException {
        while (true) {
            ReadRun.Piece oldest;
            lock.lock();
            try {
                startPieces();
                if (run.pieces().stream().allMatch(ReadRun::isStarted)) {
                    return;
                }
                oldest = started.peekFirst();
            } finally {
                lock.unlock();
            }
            try {
                oldest.request.done(org.hpio.async.AsyncFile.TIME_INF);
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException e) {
                // the run that owns it reports it
            }
        }
    }

    /** Reads (if needed) and decodes {@code s}, which the calling thread has claimed; never throws. */
    private void decode(Slot s) {
        LoadedFile file = null;
        IOException failure = null;
        try {
            file = load(s);
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new IOException("entry " + s.path + " of " + archiveName + ": " + e, e);
        }
        lock.lock();
        try {
            s.file = file;
            s.failure = failure;
            s.decoded = true;
            if (file != null && s.holder && !s.standalone) { // the loader's own reference, for later positions
                s.run.retain();
                s.holding = true;
                s.contents = file.segment();
            }
            if (callerWaiting) { // only the caller waits for a decode (one wake-up per file costs more than it)
                decoded.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    private LoadedFile load(Slot s) throws IOException {
        ArchiveEntry e = s.entry;
        ReadRun run = s.run;
        boolean ok = false;
        try {
            ensureStarted(run);
            try {
                run.await();
            } catch (InterruptedIOException x) {
                throw x;
            } catch (IOException x) {
                if (s.standalone) {
                    throw new IOException(archiveName + ": entry " + e.name() + ": " + x.getMessage(), x);
                }
                // The read of neighbours failed, perhaps only where another entry lies: load this one by itself,
                // so that only an entry whose own bytes cannot be read fails.
                s.standalone = true;
                try {
                    return loadAlone(s);
                } catch (IOException again) {
                    again.addSuppressed(x);
                    throw again;
                }
            }
            long header = e.localHeaderOffset(); // only the header's bytes as a buffer: a run may exceed 2 GiB
            long headerBytes = Math.min(run.to - header, ZipFormat.LOCAL_HEADER_SIZE + 2 * 0xFFFFL);
            long data = archive.dataOffset(e, run.fileBytes(header, headerBytes).asByteBuffer(), header);
            MemorySegment raw = run.fileBytes(data, e.compressedSize());
            MemorySegment contents = e.method() == ZipFormat.STORED ? raw
                    : run.memory.asSlice(s.outputOffset, e.uncompressedSize());
            WholeEntryDecoder.decode(archiveName, e, raw, contents, nativeInflate, archive.warningSink());
            io.countLoad(e.uncompressedSize());
            LoadedFile f = new LoadedFile(e.name(), contents, run::release);
            ok = true;
            return f;
        } finally {
            if (!ok) {
                run.release();
            }
        }
    }

    /** A worker: decodes the first unclaimed Deflate position after the caller's next one, until closed. */
    private void work() {
        while (true) {
            Slot s;
            lock.lock();
            try {
                while ((s = claimable()) == null && !closed) {
                    idleWorkers++;
                    admittedMore.awaitUninterruptibly();
                    idleWorkers--;
                }
                if (closed) {
                    return;
                }
                s.claimed = true;
            } finally {
                lock.unlock();
            }
            decode(s);
        }
    }

    /**
     * The first unclaimed Deflate position after the head. Stored entries are left to the caller's thread: their
     * check costs less than handing them over between threads would.
     */
    private Slot claimable() {
        boolean head = true;
        for (Slot s : window) {
            if (!head && !s.claimed && s.entry != null && s.entry.method() != ZipFormat.STORED) {
                return s;
            }
            head = false;
        }
        return null;
    }

    /** What the loader's reads did so far. */
    public LoadStats stats() {
        return io.stats();
    }

    /**
     * Stops: waits for the workers to finish the file each is decoding and for every read in flight, frees
     * the files not delivered, and closes the loader's file handle. Delivered files stay valid. Idempotent.
     */
    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            admittedMore.signalAll();
        } finally {
            lock.unlock();
        }
        for (Thread t : workers) {
            boolean interrupted = false;
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        for (ReadRun.Piece p : started) {
            ReadRun.drain(p);
        }
        for (Slot s : window) {
            if (s.file != null) {
                s.file.close();
            } else if (s.run != null && !s.decoded) {
                s.run.release();
            }
        }
        for (Slot h : List.copyOf(holders.values())) {
            release(h);
        }
        idle.clear();
        window.clear();
        unstarted.clear();
        started.clear();
        io.close();
    }
}
