/**
 * Trace replays that hold names and sizes, never data: the seeks a trace incurs on an archive layout
 * (002 §4.3), a cache's hit rates at a size (002 §4.4), the allocator's waste (002 §4.6). A simulated file
 * cache is a {@link org.hpio.archive.simulation.FileCacheModel}; trace-driven ordering (002 §3.3) uses one too.
 */
package org.hpio.archive.simulation;
