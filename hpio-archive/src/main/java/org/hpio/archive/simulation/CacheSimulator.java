package org.hpio.archive.simulation;

import org.hpio.archive.cache.FileCache;
import org.hpio.archive.cache.policy.PolicyKind;
import org.hpio.archive.trace.Trace;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.archive.trace.TraceRun;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Replays a load trace through a simulated whole-file cache (002 §4.4): the whole trace as one sequence (one
 * cache for all runs, as the paper's combined trace), counting hits, bytes, compulsory misses (first loads of a
 * file) and, given an archive layout, the seeks the reads incur (002 §4.3, counted by {@link SeekCounter}). A
 * file larger than the bypass limit is never offered to the cache, whatever the policy, as {@link FileCache}
 * does. Any {@link FileCacheModel} can be simulated: the registered policies through {@link PolicyCache}, or
 * another cache (the CLI adds Caffeine).
 */
public final class CacheSimulator {
    /**
     * What one replay measured.
     *
     * @param policy           the cache's name
     * @param capacity         its size in bytes
     * @param loads            loads replayed
     * @param hits             loads the cache served
     * @param loadedBytes      bytes of all loads
     * @param hitBytes         bytes of the loads the cache served
     * @param compulsoryMisses misses of files never loaded before (no cache could serve them)
     * @param seeks            seeks of the reads on the layout (whole trace, 002 §4.3), or -1 without a layout
     */
    public record Result(String policy, long capacity, int loads, int hits, long loadedBytes, long hitBytes,
                         int compulsoryMisses, int seeks) {
        public int misses() {
            return loads - hits;
        }

        public double hitRate() {
            return loads == 0 ? 0 : (double) hits / loads;
        }

        public double byteHitRate() {
            return loadedBytes == 0 ? 0 : (double) hitBytes / loadedBytes;
        }

        /** Misses of files loaded before: evicted (or bypassed) but needed again. */
        public int nonCompulsoryMisses() {
            return misses() - compulsoryMisses;
        }

        /** Non-compulsory misses as a share of all misses (002 §4.4: LRU 26 %, Landlord 2 %). */
        public double nonCompulsoryShare() {
            return misses() == 0 ? 0 : (double) nonCompulsoryMisses() / misses();
        }
    }

    private CacheSimulator() {
    }

    /**
     * Replays {@code trace} through a fresh cache of {@code model} named {@code name} of {@code capacity} bytes;
     * files over {@code bypassShare} of the capacity bypass it; seeks are counted on {@code layout} if not null.
     */
    public static Result replay(Trace trace, String name, FileCacheModel model, long capacity, double bypassShare,
                                Layout layout) {
        FileCacheModel bypassing = bypassing(model, (long) Math.floor(capacity * bypassShare));
        FileCacheSimulation cache = bypassing.start();
        Set<String> seen = new HashSet<>();
        int loads = 0;
        int hits = 0;
        int compulsory = 0;
        long loaded = 0;
        long hitBytes = 0;
        for (TraceRun run : trace.runs()) {
            for (TraceEvent e : run.events()) {
                if (!e.isLoad()) {
                    cache.free(e.path(), e.size());
                    continue;
                }
                loads++;
                loaded += e.size();
                if (cache.load(e.path(), e.size())) {
                    hits++;
                    hitBytes += e.size();
                } else if (seen.add(e.path())) {
                    compulsory++;
                }
                seen.add(e.path());
            }
        }
        int seeks = layout == null ? -1 : SeekCounter.count(trace, layout, bypassing).wholeTrace().seeks();
        return new Result(name, capacity, loads, hits, loaded, hitBytes, compulsory, seeks);
    }

    /** A registered policy: {@link #replay} with {@link PolicyCache}. */
    public static Result replay(Trace trace, PolicyKind kind, long capacity, double bypassShare, Layout layout) {
        return replay(trace, kind.name(), PolicyCache.model(kind, capacity), capacity, bypassShare, layout);
    }

    /** {@code model} with files over {@code limit} bytes kept out of it. */
    public static FileCacheModel bypassing(FileCacheModel model, long limit) {
        return () -> {
            FileCacheSimulation inner = model.start();
            return new FileCacheSimulation() {
                @Override
                public boolean load(String path, long size) {
                    return size <= limit && inner.load(path, size);
                }

                @Override
                public void free(String path, long size) {
                    inner.free(path, size);
                }
            };
        };
    }

    /** The sum of the sizes of the distinct files {@code trace} loads (the largest cache size worth simulating). */
    public static long distinctBytes(Trace trace) {
        Map<String, Long> sizes = new HashMap<>();
        trace.runs().forEach(r -> r.loads().forEach(e -> sizes.put(e.path(), e.size())));
        return sizes.values().stream().mapToLong(Long::longValue).sum();
    }
}
