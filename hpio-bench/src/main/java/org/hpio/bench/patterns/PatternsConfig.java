package org.hpio.bench.patterns;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One configuration of the patterns suite, a way of doing a sweep's operations (004's strategies, hpio bulk,
 * C). {@link #run} performs {@code p.ops()} operations on {@code file} (which exists with the file's size) and
 * returns the {@link Fold} checksum of what it read (0 for writes, which the caller checks in the file).
 */
interface PatternsConfig {
    String name();

    String description();

    boolean supports(Point p);

    long run(Point p, Path file, Source source) throws IOException;
}
