/**
 * Zip archives for fast loading (002): write them ({@link org.hpio.archive.ArchiveBuilder}), open and load
 * their files ({@link org.hpio.archive.Archive}), load a known list ahead of the caller
 * ({@link org.hpio.archive.ArchiveLoader}), and overlay archives and directories
 * ({@link org.hpio.archive.MountTable}). See docs/DESIGN.md, "Archive loads".
 *
 * <p>The package-private classes, by job (one package, since the read path uses package-private parts of
 * {@code Archive}, {@code ArchiveEntry} and {@code LoadedFile}):
 * <ul>
 *   <li>format: {@code ZipFormat}, {@code EndOfDirectory}, {@code CentralDirectory}, {@code EntryNames};</li>
 *   <li>reading: {@code BlockIo} (load memory from core's {@code MemoryPool}), {@code BlockCache},
 *       {@code WholeEntryReads}, {@code StraightReads}, {@code BlockStream}, {@code ChannelReads}; the loader's
 *       {@code ReadRun}, {@code ReadQueue}, {@code ReuseBook}, {@code LoaderSlot};</li>
 *   <li>decoding: {@code WholeEntryDecoder}, {@code EntryDecoder}, {@code EntryInputStream} over the
 *       {@code StreamDecompressor}s ({@code DeflateStream}; {@code ZstdStream} and {@code Bzip2Stream} over
 *       {@code NativeStream}), all checked by {@code EntryCheck}; {@code ArchiveWarnings};</li>
 *   <li>writing: {@code ZipWriter}, {@code EntryEncoder}, {@code EncodedEntry}, {@code ZstdOutputStream},
 *       {@code CountingOutputStream}.</li>
 * </ul>
 */
package org.hpio.archive;
