package org.hpio.archive.order;

import org.hpio.archive.DirectoryOrder;
import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.archive.simulation.Layout;
import org.hpio.archive.simulation.SeekCounter;
import org.hpio.archive.trace.Trace;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The figure of issue 6 on the real trace (three CPython start-ups, 1,712 loads of 1,365 files): trace order
 * has at most a fifth of the seeks of directory order over the whole trace. Deterministic: seek counts, not
 * timings.
 */
class PythonTraceOrderingTest {
    static final long MIB = 1L << 20;

    static Trace realTrace() throws IOException, URISyntaxException {
        return Trace.read(Path.of(PythonTraceOrderingTest.class.getResource(
                "/traces/python-startup-3runs.trace").toURI()));
    }

    @Test
    void traceOrderHasAtMostAFifthOfTheSeeksOfDirectoryOrder() throws Exception {
        Trace trace = realTrace();
        List<String> directoryOrder = DirectoryOrder.sort(TraceOrdering.tracedFiles(trace));
        assertEquals(1365, directoryOrder.size());
        for (long cacheBytes : new long[] {0, 4 * MIB, 10 * MIB, 64 * MIB}) {
            FileCacheModel cache = FileCacheModel.lru(cacheBytes);
            List<String> traceOrder = TraceOrdering.order(trace, directoryOrder, cache);
            SeekCounter.Report byTrace = SeekCounter.count(trace, Layout.packed(traceOrder), cache);
            SeekCounter.Report byDirectory = SeekCounter.count(trace, Layout.packed(directoryOrder), cache);
            int traceSeeks = byTrace.wholeTrace().seeks();
            int directorySeeks = byDirectory.wholeTrace().seeks();
            System.out.printf("LRU cache %d MiB: whole trace %d vs %d seeks; runs %s vs %s%n", cacheBytes / MIB, traceSeeks,
                    directorySeeks, byTrace.runs(), byDirectory.runs());
            assertTrue(5 * traceSeeks <= directorySeeks, traceSeeks + " seeks in trace order vs "
                    + directorySeeks + " in directory order");
            assertTrue(5 * byTrace.sumOfRuns().seeks() <= byDirectory.sumOfRuns().seeks());
        }
    }
}
