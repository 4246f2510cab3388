/**
 * Asynchronous bulk file I/O: {@link org.hpio.async.AsyncFile} and {@link org.hpio.async.AsyncFileRequest},
 * the API of Bonachea's "Bulk File I/O Extensions to Java" (000 §4, Figures 2-4), on hpio's io_uring engine
 * (or the portable thread-pool engine). Java additions (Path constructors, options, ByteBuffer and
 * MemorySegment forms, positional calls, a CompletableFuture view, durable writes) sit beside the paper's
 * methods.
 */
package org.hpio.async;
