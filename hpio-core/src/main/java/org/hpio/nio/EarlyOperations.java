package org.hpio.nio;

import org.hpio.internal.io.AdmissionGate;
import org.hpio.internal.io.EngineConfig;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The reads and writes of asynchronous channels made by the JDK's channel on the file while hpio's own way is
 * not ready: opened while the warm-up links the native calls (see {@link NativeFiles#channelCallsReady}), or
 * while a thread of hpio's starts the engine ({@link EngineRings#startInBackground}). Only within hpio's
 * bounds, taken at once or not at all ({@link #tryEnter}: an operation that does not fit goes hpio's way, opening
 * its descriptor or starting the engine on the caller's thread):
 * <ul>
 *   <li>at most {@value #MAX_OPERATIONS} at a time over every such channel: the JDK's channel runs each
 *       operation on a thread of its pool (or of the channel's executor), which would otherwise grow with the
 *       operations in flight;</li>
 *   <li>writes' bytes in flight at most the engine's default staging budget (or a quarter of the heap, if less),
 *       heap data staged off-heap. The JDK's channel alone queues every write on its executor with its buffer
 *       (003's OutOfMemoryError); here the bytes waiting are bounded and no heap buffer is held, so that cannot
 *       happen on this path either. A write larger than the whole bound goes alone.</li>
 * </ul>
 * Nobody waits here: a write that waited for room could wait for a write queued behind it on the same executor
 * (a handler on a single-thread executor writing), which the JDK's channel runs there.
 *
 * <p>Buffers: a heap buffer's remaining bytes are copied at the call into a direct buffer of the write's own
 * (not hpio's native pool, whose calls may not be ready; not a shared arena, whose first use costs a cold JVM
 * 10-13 ms), which the JDK's channel writes from and which is dropped for the GC when it is done (the JDK
 * bounds direct memory, by default to the heap's maximum, and collects to make room); the caller's buffer is
 * held only weakly and its position moves by the bytes written just before the caller is told, as the engine's
 * staged writes do ({@link BufferTransfer}). A direct buffer is the JDK channel's until its handler runs, as for
 * any of its writes. The place and the bytes come back just before the caller's handler (or future) is told.
 */
final class EarlyOperations {
    private EarlyOperations() {
    }

    /** The JDK channel's operations in flight at most, over every channel (see {@link #tryEnter}). */
    static final int MAX_OPERATIONS = 4;
    private static final AtomicInteger OPERATIONS = new AtomicInteger();

    /**
     * Takes, at once or not at all, one of the {@value #MAX_OPERATIONS} places and, for a write, room for its
     * {@code bytes} ({@code read}: none); the operation given to {@link #transfer} gives them back when it
     * completes. Never waits.
     */
    static boolean tryEnter(boolean read, int bytes) {
        while (true) {
            int now = OPERATIONS.get();
            if (now >= MAX_OPERATIONS) {
                return false;
            }
            if (OPERATIONS.compareAndSet(now, now + 1)) {
                break;
            }
        }
        if (!read && !IN_FLIGHT.tryAcquire(bytes)) {
            OPERATIONS.decrementAndGet();
            return false;
        }
        return true;
    }

    /**
     * The bytes of early writes in flight, over every such channel: the engine's default staging budget, or a
     * quarter of the heap's maximum if less (the JDK's default bound on direct memory, where the staging copies
     * live, is the heap's maximum).
     */
    private static final AdmissionGate IN_FLIGHT = new AdmissionGate(Math.min(EngineConfig.defaults().maxStagingBytes(),
            Math.max(1, Runtime.getRuntime().maxMemory() / 4)), true);

    /**
     * Reads into {@code buffer} or writes its remaining bytes at {@code position} through {@code jdk}, having
     * taken their place and room by {@link #tryEnter}: the result goes to {@code handler} (on the JDK channel's
     * executor; then null is returned) or to the returned future.
     */
    static <A> Future<Integer> transfer(HpioAsynchronousFileChannel channel, AsynchronousFileChannel jdk,
                                        ByteBuffer buffer, long position, boolean read, A attachment,
                                        CompletionHandler<Integer, ? super A> handler) {
        CompletableFuture<Integer> future = handler == null ? new Cancellable(channel) : null;
        Released<A> done = new Released<>(read ? 0 : buffer.remaining(), read ? null : buffer, future, handler);
        try {
            if (read) {
                jdk.read(buffer, position, attachment, done);
            } else {
                jdk.write(done.written(buffer), position, attachment, done);
            }
        } catch (RuntimeException | Error e) {
            done.release();   // refused before it went in (a closed channel's operation fails by its handler)
            throw e;
        }
        return future;
    }

    /**
     * An operation's future, cancelled as the JDK's are: it is then done, its result never given, and a forceful
     * cancel closes the channel (which stops the operation, as on the JDK's own channel).
     */
    private static final class Cancellable extends CompletableFuture<Integer> {
        private final HpioAsynchronousFileChannel channel;

        Cancellable(HpioAsynchronousFileChannel channel) {
            this.channel = channel;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            if (isDone() || !super.cancel(false)) {
                return false;
            }
            if (mayInterruptIfRunning) {
                channel.closeQuietly();
            }
            return true;
        }
    }

    /**
     * One operation's place, and a write's staging and bound: gives them back, moves a staged caller buffer's
     * position, then tells the caller's handler or future.
     */
    private static final class Released<A> implements CompletionHandler<Integer, A> {
        /** A write's bytes under the bound; 0 for a read. */
        private final int bytes;
        private final CompletableFuture<Integer> future;
        private final CompletionHandler<Integer, ? super A> handler;
        /** Whether a heap buffer is copied (its staging dropped at completion, for the GC to free). */
        private final boolean staged;
        /** The caller's heap buffer, held weakly; null for a direct one or a read. */
        private final WeakReference<ByteBuffer> caller;

        /** {@code src}: a write's buffer (null for a read). */
        Released(int bytes, ByteBuffer src, CompletableFuture<Integer> future,
                 CompletionHandler<Integer, ? super A> handler) {
            this.bytes = bytes;
            this.future = future;
            this.handler = handler;
            this.staged = src != null && !src.isDirect();
            this.caller = staged ? new WeakReference<>(src) : null;
        }

        /** What the JDK's channel writes: {@code src} itself if direct, else a copy of its remaining bytes. */
        ByteBuffer written(ByteBuffer src) {
            if (!staged) {
                return src;
            }
            return ByteBuffer.allocateDirect(bytes).put(src.duplicate()).flip();
        }

        void release() {
            if (bytes > 0) {
                IN_FLIGHT.release(bytes);
            }
            OPERATIONS.decrementAndGet();
        }

        @Override
        public void completed(Integer result, A attachment) {
            release();
            ByteBuffer src = caller == null ? null : caller.get();
            if (src != null) {   // else collected: nobody can see its position
                src.position(src.position() + result);
            }
            if (handler != null) {
                handler.completed(result, attachment);
            } else {
                future.complete(result);
            }
        }

        @Override
        public void failed(Throwable exc, A attachment) {
            release();
            if (handler != null) {
                handler.failed(exc, attachment);
            } else {
                future.completeExceptionally(exc);
            }
        }
    }
}
