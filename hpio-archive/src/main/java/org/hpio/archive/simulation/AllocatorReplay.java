package org.hpio.archive.simulation;

import org.hpio.archive.cache.FileCache;
import org.hpio.archive.cache.FileCacheConfig;
import org.hpio.archive.cache.FileCacheStats;
import org.hpio.archive.trace.Trace;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.archive.trace.TraceRun;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * Replays a trace through a real {@link FileCache} (allocator, extant list, policy) to measure the allocator's
 * waste as 002 §4.6 does: space occupied over bytes requested, sampled after every load once the cache first
 * had to evict. Each load's buffer is released at once (002 §3.5.2 expects that), or at the trace's free event
 * when the trace has them. The loader writes the first and last byte of each file, so memory is really touched.
 */
public final class AllocatorReplay {
    /**
     * @param samples    loads after the first eviction, each one sample
     * @param meanWaste  mean of the samples (0.12 = 12 %)
     * @param maxWaste   largest sample
     * @param endWaste   waste after the last load
     * @param evictions  files the policy evicted
     * @param hitRate    the cache's hit rate over the replay
     * @param peakWaste  Johnstone and Wilson's measure (002 ref. [14]): memory occupied at the moment the live
     *                   requested bytes peaked, over those bytes, minus one
     */
    public record Result(int samples, double meanWaste, double maxWaste, double endWaste, long evictions, double hitRate,
                         double peakWaste) {
    }

    private AllocatorReplay() {
    }

    public static Result replay(Trace trace, FileCacheConfig config) throws IOException {
        FileCache.Loader touch = (path, memory) -> {
            memory.set(JAVA_BYTE, 0, (byte) 1);
            memory.set(JAVA_BYTE, memory.byteSize() - 1, (byte) 1);
        };
        int samples = 0;
        double sum = 0;
        double max = 0;
        long peakRequested = 0;
        double peakWaste = 0;
        try (FileCache cache = new FileCache(config)) {
            Map<String, ArrayDeque<MemorySegment>> held = new HashMap<>();
            boolean freesInTrace = trace.runs().stream().anyMatch(r -> r.events().stream().anyMatch(e -> !e.isLoad()));
            for (TraceRun run : trace.runs()) {
                for (TraceEvent e : run.events()) {
                    if (!e.isLoad()) {
                        var q = held.get(e.path());
                        if (q != null && !q.isEmpty()) {
                            cache.release(q.poll());
                        }
                        continue;
                    }
                    if (e.size() == 0) {
                        continue;
                    }
                    MemorySegment view = cache.get(e.path(), e.size(), 1.0, touch);
                    if (freesInTrace) {
                        held.computeIfAbsent(e.path(), p -> new ArrayDeque<>()).add(view);
                    } else {
                        cache.release(view);
                    }
                    FileCacheStats s = cache.stats();
                    if (s.allocator().requestedBytes() > peakRequested) {
                        peakRequested = s.allocator().requestedBytes();
                        peakWaste = s.allocator().waste();
                    }
                    if (s.evictions() > 0) {
                        double w = s.allocator().waste();
                        samples++;
                        sum += w;
                        max = Math.max(max, w);
                    }
                }
            }
            FileCacheStats end = cache.stats();
            long loads = end.hits() + end.misses();
            return new Result(samples, samples == 0 ? 0 : sum / samples, max, end.allocator().waste(), end.evictions(),
                    loads == 0 ? 0 : (double) end.hits() / loads, peakWaste);
        }
    }
}
