package org.hpio.archive;

/**
 * What loads of one archive (or mount table) did so far.
 *
 * @param loads          files loaded (including file-cache hits)
 * @param userBytes      bytes of files delivered
 * @param reads          read requests sent to the engine
 * @param bytesRead      bytes those requests read
 * @param seeks          reads that did not start where the previous read of the same file ended (002 §4.3)
 * @param blockCacheHits blocks taken from the block cache instead of being read
 */
public record LoadStats(long loads, long userBytes, long reads, long bytesRead, long seeks, long blockCacheHits) {
    /** The sum of two counts. */
    public LoadStats plus(LoadStats o) {
        return new LoadStats(loads + o.loads, userBytes + o.userBytes, reads + o.reads, bytesRead + o.bytesRead,
                seeks + o.seeks, blockCacheHits + o.blockCacheHits);
    }
}
