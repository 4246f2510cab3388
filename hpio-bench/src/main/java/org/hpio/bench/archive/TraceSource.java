package org.hpio.bench.archive;

import org.hpio.archive.trace.Trace;

import java.io.IOException;
import java.nio.file.Path;

/** Where a replay's load trace and the files it loads come from. */
interface TraceSource {
    /** What the report calls the trace. */
    String name();

    /** The loads, as runs. */
    Trace trace() throws IOException;

    /**
     * Writes the traced file {@code path} of {@code size} bytes to {@code target} (whose directory exists);
     * returns whether it is a stand-in for a file the source did not have.
     */
    boolean write(String path, long size, Path target) throws IOException;

    /** What the report says of the files written (how many of {@code files} are stand-ins, and why). */
    String describeFiles(int standIns, int files);
}
