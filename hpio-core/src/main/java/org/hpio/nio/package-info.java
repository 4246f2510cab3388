/**
 * Existing Java code gets io_uring: {@link java.nio.channels.AsynchronousFileChannel} and
 * {@link java.nio.channels.FileChannel} on hpio's engine, through the JDK's own
 * {@link java.nio.file.spi.FileSystemProvider} mechanism (issue 17).
 *
 * <p>Two ways in: {@code -Djava.nio.file.spi.DefaultFileSystemProvider=org.hpio.nio.HpioFileSystemProvider}
 * for the whole JVM (unmodified code calling {@code AsynchronousFileChannel.open}, {@code FileChannel.open},
 * {@code Files.newByteChannel} gets hpio's channels on regular files, but a platform thread's plain read-only
 * byte channel, which blocks its thread on either, is the JDK's), or {@link org.hpio.nio.HpioChannels}
 * explicitly. Everything else is the platform's provider, unchanged.
 *
 * <h2>Design note: what each part fixes of 003 ("Async File IO")</h2>
 * <ul>
 *   <li><b>Finding 1</b> (on Linux the JDK's AsynchronousFileChannel is a blocking call on an executor thread):
 *       hpio's channel hands every read, write and force to the engine (io_uring: no thread per request;
 *       the portable engine where io_uring is refused). The executor given to {@code open} runs only the
 *       completion handlers, as its Javadoc promises, never the I/O; handlers never run on the engine's
 *       completion thread. Without an executor, hpio's pool is a proactor: its idle thread waits for the
 *       completions and runs their handlers, no hand-off between threads. FileChannel's calls go to the same
 *       engine and, on a machine with two cores or more, to a second io_uring engine beside it, each thread's
 *       to one of them ({@code EngineRings}): a virtual thread blocked in a read, write or force
 *       parks and frees its carrier instead of pinning it in the system call. A small buffered read whose data
 *       the page cache holds is one preadv2 on the calling thread, with no engine request
 *       ({@code CachedRead}).</li>
 *   <li><b>Finding 2</b> (writes submitted faster than the disk grow the heap until OutOfMemoryError): heap
 *       buffers are staged off-heap within the engine's staging budget (64 MiB by default) and the engine
 *       admits a bounded number of requests (256); each of FileChannel's engines has bounds of its own. At either bound the thread calling {@code write} waits
 *       until earlier writes complete: memory stays bounded and the writer runs at the disk's pace. A staged
 *       write holds its heap buffer only weakly, so the heap keeps no more than the writer does.</li>
 *   <li><b>Finding 3</b> (the OS completes writes into its page cache; durability needs DSYNC/SYNC or
 *       O_DIRECT): {@code StandardOpenOption.DSYNC}/{@code SYNC} open hpio's descriptor with O_DSYNC/O_SYNC
 *       (a write completes when durable), {@link org.hpio.nio.HpioOpenOption#DIRECT} (or the JDK's
 *       {@code ExtendedOpenOption.DIRECT}) with O_DIRECT, and {@code force} is an fsync/fdatasync request.</li>
 * </ul>
 *
 * <h2>Two descriptors per channel</h2>
 * Each hpio channel opens the JDK's own channel on the file first (so option validation, creation, truncation
 * and every open exception are the JDK's), then its own descriptor for the engine; a plain read-only
 * {@code FileChannel} (READ or no option) opens its own descriptor alone and the JDK's channel only when a call
 * needs it, by {@code /proc/self/fd/N} (nothing to validate or create; a failed open goes the usual way, for the
 * JDK's exception). Truncate, locks
 * (JVM-wide overlap checks, {@link java.nio.channels.OverlappingFileLockException}), {@code map} and transfers
 * go to the JDK's channel; locks are reported as acquired by hpio's channel. Files that are not regular
 * (pipes, devices), and files of pseudo file systems (procfs, sysfs, cgroup, ...: made up as they are read,
 * so never waiting for a device, and often read by the JDK itself), get the JDK's channel alone.
 *
 * <h2>At JVM exit</h2>
 * hpio's shutdown hook closes the engine while other hooks may still use files: from then on new channels are
 * the JDK's, and open hpio channels do their I/O through the JDK's channel on the same file.
 *
 * <h2>Buffers</h2>
 * A direct buffer is the kernel's from initiation until its operation is done; heap buffers are copied to and
 * from staging memory, so the kernel never touches them. Positions move by the bytes moved, once the
 * operation completed; a failed, cancelled or closed operation leaves them. Close waits until the kernel is
 * done with every buffer of the channel.
 */
package org.hpio.nio;
