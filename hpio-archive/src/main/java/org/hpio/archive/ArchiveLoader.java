package org.hpio.archive;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.NoSuchFileException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
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
 * <p>One caller thread at a time uses {@link #next()}; the workers are daemon threads of a pool the loaders
 * share ({@link LoaderWorkers}). The parts: each position is a {@link LoaderSlot} (its decoding and its hold as
 * state enums), the repeats are kept by the {@link ReuseBook}, the reads started in order by the
 * {@link ReadQueue}; this class admits positions into the window, forms the runs, hands out the decoding and
 * delivers. The caller's first file is planned and read first: the rest of the first window is planned by a
 * worker while the caller decodes (see {@link #refill(long)}).
 */
public final class ArchiveLoader implements AutoCloseable {
    /** Positions in the window at most, per file of {@link LookAhead#files()} (those reusing memory count here). */
    static final int SLOTS_PER_FILE = 4;
    /**
     * What a worker admits of an open batch at a time, in reads' worth of window bytes (see {@link #refill(long)}):
     * all of a 1,712-file trace's first window at once held the lock 1.4 ms (Intel Xeon); a part holds it a
     * fraction of that, and the worker decodes between parts.
     */
    static final int WORKER_PART_READS = 8;

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
    private final ArrayDeque<LoaderSlot> window = new ArrayDeque<>();
    private final ReuseBook book;
    private final ReadQueue reads;
    private final LoaderWorkers.Crew workers;
    private int admitted;
    private int delivered;
    private long windowBytes;
    /** Positions in the window that read (or decode) their own file: what {@link LookAhead#files()} bounds. */
    private int aheadFiles;
    private boolean closed;
    /** Whether the last refill admitted part of a batch only (see {@link #refill(long)}). */
    private boolean batchOpen;

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
        this.book = new ReuseBook(this.paths.toArray(String[]::new), lookAhead.reuse());
        this.io = BlockIo.open(archive.path(), options.withQueueDepth(ReadQueue.MAX_PIECES_IN_FLIGHT), false,
                offloadsCopies(lookAhead));
        this.reads = new ReadQueue(io, lock);
        this.workers = LoaderWorkers.crew(lookAhead.workers());
        try {
            workers.start(this::work); // before the first reads, whose completions would compete with a new thread
            lock.lock();
            try {
                refill(lookAhead.readBytes());
            } finally {
                lock.unlock();
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    /**
     * Whether the loader's reads may hand their page-cache copies to a kernel worker: only when the caller and the
     * decode workers leave a core idle. Where they fill every core, such a worker only takes a core from a decoder;
     * without it, io_uring makes the copy in the thread that started the read (cached data) or as the data arrives
     * (the kernel's task work for that thread). See DESIGN, "Copies of a look-ahead's reads", for the figures.
     */
    static boolean offloadsCopies(LookAhead lookAhead) {
        return lookAhead.workers() + 1 < Runtime.getRuntime().availableProcessors();
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
        LoaderSlot head;
        boolean mine;
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the loader of " + archiveName + " is closed");
            }
            if (!hasNext()) {
                throw new NoSuchElementException("all " + paths.size() + " files of " + archiveName
                        + " were delivered");
            }
            if (window.isEmpty() || lookAhead.workers() == 0) { // else the workers refill, the caller decodes
                refill();
            }
            head = window.peekFirst();
            mine = head.claim();
        } finally {
            lock.unlock();
        }
        if (mine) {
            decode(head);
        } else {
            decodeOthersWhileHeadDecodes(head);
        }
        boolean alone;
        lock.lock();
        try {
            alone = deliver(head);
        } finally {
            lock.unlock();
        }
        if (!alone) {
            if (head.failure != null) {
                throw head.failure;
            }
            return head.file;
        }
        try {
            return loadAlone(head.source);
        } catch (RuntimeException e) {
            throw new IOException("entry " + head.path + " of " + archiveName + ": " + e, e);
        }
    }

    /**
     * Waits until {@code head} is decoded and takes it out of the window; a reusing position gets its view of
     * the source's memory. True when it must load its file by itself instead (the source holds none). Holds the
     * lock.
     */
    private boolean deliver(LoaderSlot head) {
        while (!head.isDone()) {
            callerWaiting = true;
            decoded.awaitUninterruptibly();
            callerWaiting = false;
        }
        window.pollFirst();
        delivered++;
        windowBytes -= head.cost;
        aheadFiles -= head.readsItself() ? 1 : 0;
        if (!head.readsItself()) {
            head.file = book.share(head, io);
        }
        book.afterDelivery(head);
        refill();
        return !head.readsItself() && head.file == null;
    }

    /**
     * Loads {@code like}'s entry by itself, in a read of its own through the loader's handle (queued ahead of the
     * window's reads), for a position whose earlier load failed, was interrupted or was not kept, or whose read
     * of neighbours failed. Not kept for reuse; a failure of this read is final.
     */
    private LoadedFile loadAlone(LoaderSlot like) throws IOException {
        LoaderSlot alone = LoaderSlot.standaloneLike(like);
        lock.lock();
        try {
            long start = alone.entry.localHeaderOffset();
            reads.addFirst(runOf(List.of(alone), start, start + span(alone.entry)));
            reads.start();
        } finally {
            lock.unlock();
        }
        return load(alone);
    }

    /** {@link #refill(long)} with no part: the whole batch the window has room for. */
    private void refill() {
        refill(Long.MAX_VALUE);
    }

    /**
     * Admits positions into the window once it has drained far enough for a batch (half its files with a
     * quarter of its bytes free, or the other way round), so that neighbours are admitted, and read, together;
     * forms their runs and starts reads. Positions that reuse an earlier one's memory count no file and no byte.
     * Admits about {@code partCost} (window bytes) of the batch at most: the loader's first refill admits one
     * read's worth, so that the first file's reads start before the rest of the window is planned, and a worker
     * plans that while the caller decodes the first file (warm, planning a 1,712-file trace's window took the
     * caller 1.4 ms before it could start on the first file). A batch admitted in part stays open: the next
     * refill goes on with it whether or not the window is low. Holds the lock.
     */
    private void refill(long partCost) {
        if (admitted < paths.size() && lookAhead.files() - aheadFiles > 0 && (batchOpen || windowIsLow())) {
            List<LoaderSlot> batch = new ArrayList<>();
            int slots = SLOTS_PER_FILE * lookAhead.files();
            long part = 0;
            batchOpen = false;
            while (admitted < paths.size() && aheadFiles < lookAhead.files() && window.size() < slots) {
                if (part >= partCost) {
                    batchOpen = true;
                    break;
                }
                LoaderSlot s = new LoaderSlot(paths.get(admitted), book.key(admitted), admitted);
                LoaderSlot from = book.reusable(s.key);
                if (from != null) { // nothing to read: it shares the memory of an earlier position
                    book.admitReuse(s, from);
                } else {
                    resolve(s);
                    if (!makeRoom(s)) {
                        break;
                    }
                    if (s.failure == null) {
                        batch.add(s);
                        book.admitReader(s);
                    }
                }
                admitted++;
                window.addLast(s);
                windowBytes += s.cost;
                part += s.cost;
                aheadFiles += s.readsItself() ? 1 : 0;
            }
            formRuns(batch);
            if (idleWorkers > 0) {
                admittedMore.signalAll();
            }
        }
        reads.start();
    }

    /** Whether the window has drained far enough to admit a batch (see {@link #refill()}). */
    private boolean windowIsLow() {
        long share = lookAhead.bytes() / 2;
        int fileRoom = lookAhead.files() - aheadFiles;
        long byteRoom = share - windowBytes;
        int slots = SLOTS_PER_FILE * lookAhead.files();
        return window.isEmpty() || window.size() <= slots / 2
                && (fileRoom >= lookAhead.files() / 2 && byteRoom >= share / 4
                || byteRoom >= share / 2 && fileRoom >= lookAhead.files() / 4);
    }

    /**
     * Makes room for {@code s} in the look-ahead's bytes, dropping kept files only where that makes room: always
     * for a window gone empty, else within the window's share (half the bytes; beyond it, only what kept files
     * leave free). False when {@code s} does not fit yet.
     */
    private boolean makeRoom(LoaderSlot s) {
        long room = lookAhead.bytes() - windowBytes - s.cost;
        if (window.isEmpty() || windowBytes + s.cost <= lookAhead.bytes() / 2 && book.pinnedBytes() <= room) {
            book.dropFarthest(room);
        }
        return window.isEmpty() || book.keptBytes() <= room;
    }

    /** Finds the slot's entry and its cost, or records why it cannot be loaded. */
    private void resolve(LoaderSlot s) {
        try {
            ArchiveEntry e = archive.requireFile(s.path);
            archive.checkReadable(e);
            checkFits(e);
            s.entry = e;
            s.cost = span(e) + (e.method() != ZipFormat.STORED ? e.uncompressedSize() : 0);
        } catch (IOException e) {
            s.finish(null, e);
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
    private void formRuns(List<LoaderSlot> batch) {
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
            reads.add(runOf(batch.subList(i, j), start, end));
            i = j;
        }
    }

    /**
     * The run that reads file bytes {@code [start, end)} (aligned out as the handle's reads must be) for
     * {@code slots}, with room after them for their compressed entries' contents; each slot gets the run.
     */
    private ReadRun runOf(List<LoaderSlot> slots, long start, long end) {
        int align = io.offsetAlignment();
        long from = start - start % align;
        long to = Math.min(io.fileSize(), (end + align - 1) / align * align);
        long extra = 0;
        for (LoaderSlot s : slots) {
            if (s.entry.method() != ZipFormat.STORED) {
                s.outputOffset = to - from + extra;
                extra += (s.entry.uncompressedSize() + 63) & ~63L;
            }
        }
        ReadRun run = new ReadRun(from, Math.max(to, from), extra, lookAhead.readBytes(), slots.size(), io,
                archiveName);
        for (LoaderSlot s : slots) {
            s.run = run;
        }
        return run;
    }

    /** Reads (if needed) and decodes {@code s}, which the calling thread has claimed; never throws. */
    private void decode(LoaderSlot s) {
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
            s.finish(file, failure);
            book.hold(s, file); // the loader's own reference, for later positions
            if (callerWaiting) { // only the caller waits for a decode (one wake-up per file costs more than it)
                decoded.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    private LoadedFile load(LoaderSlot s) throws IOException {
        ReadRun run = s.run;
        boolean ok = false;
        try {
            reads.ensureStarted(run);
            LoadedFile f;
            try {
                if (ArrivingZstd.applies(s.entry, lookAhead.readBytes())) {
                    f = decodeArriving(run, s);
                } else {
                    awaitRun(run);
                    f = decodeFrom(run, s);
                }
            } catch (ReadFailed x) {
                return afterFailedRead(s, x.getCause());
            }
            ok = true;
            return f;
        } finally {
            if (!ok) {
                run.release();
            }
        }
    }

    /**
     * After {@code s}'s run failed to read: a standalone load fails, naming the entry; a read of neighbours may
     * have failed only where another entry lies, so the entry is loaded by itself, and only an entry whose own
     * bytes cannot be read fails.
     */
    private LoadedFile afterFailedRead(LoaderSlot s, IOException x) throws IOException {
        if (s.standalone) {
            throw new IOException(archiveName + ": entry " + s.entry.name() + ": " + x.getMessage(), x);
        }
        s.standalone = true;
        try {
            return loadAlone(s);
        } catch (IOException again) {
            again.addSuppressed(x);
            throw again;
        }
    }

    /** A run's read failed (not an interrupt): the cause. */
    private static final class ReadFailed extends Exception {
        ReadFailed(IOException cause) {
            super(cause);
        }

        @Override
        public synchronized IOException getCause() {
            return (IOException) super.getCause();
        }
    }

    /** Waits for the whole of {@code run}; a failed read becomes {@link ReadFailed}. */
    private static void awaitRun(ReadRun run) throws ReadFailed, InterruptedIOException {
        try {
            run.await();
        } catch (InterruptedIOException x) {
            throw x;
        } catch (IOException x) {
            throw new ReadFailed(x);
        }
    }

    /**
     * Decodes {@code s}'s Zstandard data as its run's pieces arrive ({@link ArrivingZstd}), straight into its
     * place; anything but a clean end of the frame goes to {@link #decodeFrom} once the run is read, whose verdict
     * and words are the archive's on every path.
     */
    private LoadedFile decodeArriving(ReadRun run, LoaderSlot s) throws IOException, ReadFailed {
        ArchiveEntry e = s.entry;
        long header = e.localHeaderOffset();
        long headerBytes = headerBytes(run, e);
        MemorySegment contents = run.memory.asSlice(s.outputOffset, e.uncompressedSize());
        ArrivingZstd.Decoded d;
        try {
            run.awaitReadThrough(header + headerBytes);
            long data = archive.dataOffset(e, run.fileBytes(header, headerBytes).asByteBuffer(), header);
            d = ArrivingZstd.decode(run, data, e.compressedSize(), contents);
        } catch (InterruptedIOException | ArchiveFormatException x) {
            throw x;
        } catch (IOException x) {
            throw new ReadFailed(x);
        }
        if (d == null) {
            awaitRun(run);
            return decodeFrom(run, s);
        }
        EntryCheck check = new EntryCheck(archiveName, e, archive.warningSink());
        check.endedAfter(d.left(), d.produced());
        check.checkCrc(contents);
        io.countLoad(e.uncompressedSize());
        return new LoadedFile(e.name(), contents, run::release);
    }

    /** How many of {@code run}'s bytes from {@code e}'s local header on may be its header (name and extra). */
    private static long headerBytes(ReadRun run, ArchiveEntry e) {
        return Math.min(run.to - e.localHeaderOffset(), ZipFormat.LOCAL_HEADER_SIZE + 2 * 0xFFFFL);
    }

    /** Checks {@code s}'s local header in {@code run}'s bytes, then decodes and checks its data there. */
    private LoadedFile decodeFrom(ReadRun run, LoaderSlot s) throws IOException {
        ArchiveEntry e = s.entry;
        long header = e.localHeaderOffset(); // only the header's bytes as a buffer: a run may exceed 2 GiB
        long headerBytes = headerBytes(run, e);
        long data = archive.dataOffset(e, run.fileBytes(header, headerBytes).asByteBuffer(), header);
        MemorySegment raw = run.fileBytes(data, e.compressedSize());
        MemorySegment contents = e.method() == ZipFormat.STORED ? raw
                : run.memory.asSlice(s.outputOffset, e.uncompressedSize());
        WholeEntryDecoder.decode(archiveName, e, raw, contents, nativeInflate, archive.warningSink());
        io.countLoad(e.uncompressedSize());
        return new LoadedFile(e.name(), contents, run::release);
    }

    /** A worker: decodes the first unclaimed Deflate position after the caller's next one, until closed. */
    private void work() {
        while (true) {
            LoaderSlot s = null;
            lock.lock();
            try {
                while (!closed && (s = refilledClaimable()) == null) {
                    idleWorkers++;
                    admittedMore.awaitUninterruptibly();
                    idleWorkers--;
                }
                if (closed) {
                    return;
                }
                s.claim();
            } finally {
                lock.unlock();
            }
            decode(s);
        }
    }

    /**
     * A worker's next position to decode after refilling the window (it may be low, or its batch open), at most
     * {@link #WORKER_PART_READS} reads' worth at a time: the caller's first file may wait for the lock meanwhile.
     */
    private LoaderSlot refilledClaimable() {
        refill((long) WORKER_PART_READS * lookAhead.readBytes());
        return claimable(false);
    }

    /**
     * The first unclaimed compressed position after the head (with {@code readDone}: among those whose reads are
     * done). Stored entries are left to the caller's thread: their check costs less than handing them over
     * between threads would.
     */
    private LoaderSlot claimable(boolean readDone) {
        boolean head = true;
        for (LoaderSlot s : window) {
            if (!head && s.worthHandingOver() && (!readDone || s.run != null && s.run.isRead())) {
                return s;
            }
            head = false;
        }
        return null;
    }

    /**
     * While a worker decodes the head, the caller decodes later positions whose reads are done instead of
     * waiting idle (measured on a zstd replay with one worker: the caller waited about a quarter of the time).
     * It never starts one whose read is still in flight, so it is back for the head within one file's decode.
     */
    private void decodeOthersWhileHeadDecodes(LoaderSlot head) {
        while (true) {
            LoaderSlot other;
            lock.lock();
            try {
                if (head.isDone() || closed || (other = claimable(true)) == null) {
                    return;
                }
                other.claim();
            } finally {
                lock.unlock();
            }
            decode(other);
        }
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
        workers.awaitUninterruptibly();
        reads.settleAndClear();
        for (LoaderSlot s : window) {
            if (s.file != null) {
                s.file.close();
            } else if (s.run != null && !s.isDone()) {
                s.run.release();
            }
        }
        book.releaseAll();
        window.clear();
        io.close();
    }
}
