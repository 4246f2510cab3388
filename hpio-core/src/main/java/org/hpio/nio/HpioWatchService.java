package org.hpio.nio;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.Watchable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The platform's watch service, with its keys and events in hpio's paths: a key's {@code watchable()} is the
 * path that was registered (equal to it, as the JDK's is), and an event's context is a path of hpio's file
 * system, so {@code dir.resolve(event.context())} and everything opened through it stay with hpio. One key
 * object per platform key, as the platform gives one key per directory however often it is registered.
 */
final class HpioWatchService implements WatchService {
    private final HpioFileSystem fileSystem;
    private final WatchService delegate;
    /** hpio's key of each platform key registered through this service and not cancelled. */
    private final Map<WatchKey, Key> keys = new ConcurrentHashMap<>();
    /**
     * Keys cancelled and maybe still queued, each with its place in the order of cancels and polls: one signalled
     * before its cancel is still handed out by the platform's queue, and goes out as the same key object. Once a
     * poll finds the queue empty, none cancelled before that poll began can come any more: they are forgotten.
     */
    private final Map<WatchKey, Cancelled> cancelled = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();

    private record Cancelled(Key key, long cancelledAt) {
    }

    HpioWatchService(HpioFileSystem fileSystem, WatchService delegate) {
        this.fileSystem = fileSystem;
        this.delegate = delegate;
    }

    /** Registers {@code path}'s platform path with the platform's service (its checks and exceptions). */
    WatchKey register(HpioPath path, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers)
            throws IOException {
        WatchKey key = path.delegate().register(delegate, events, modifiers);
        return keys.computeIfAbsent(key, k -> new Key(k, path));
    }

    @Override
    public void close() throws IOException {
        delegate.close();
        keys.clear();
        cancelled.clear();
    }

    @Override
    public WatchKey poll() {
        long began = sequence.get();
        return oursOrForget(delegate.poll(), began);
    }

    @Override
    public WatchKey poll(long timeout, TimeUnit unit) throws InterruptedException {
        long began = sequence.get();
        return oursOrForget(delegate.poll(timeout, unit), began);
    }

    /** {@link #ours}; when the queue was empty, forgets the keys cancelled before the poll began. */
    private WatchKey oursOrForget(WatchKey key, long pollBegan) {
        if (key == null) {
            cancelled.values().removeIf(c -> c.cancelledAt() <= pollBegan);
        }
        return ours(key);
    }

    @Override
    public WatchKey take() throws InterruptedException {
        return ours(delegate.take());
    }

    /** hpio's key of a platform key the service signalled (null stays null). */
    private WatchKey ours(WatchKey key) {
        if (key == null) {
            return null;
        }
        Key mine = keys.get(key);
        if (mine == null) {   // cancelled after it was signalled: the same key object, once
            Cancelled gone = cancelled.remove(key);
            return gone != null ? gone.key() : new Key(key, fileSystem.wrap((Path) key.watchable()));
        }
        if (!key.isValid()) {
            keys.remove(key, mine);   // its directory gone: signalled this last time, and never again
        }
        return mine;
    }

    /** A platform key seen through hpio's paths. */
    private final class Key implements WatchKey {
        private final WatchKey delegate;
        private final Watchable watchable;

        Key(WatchKey delegate, Watchable watchable) {
            this.delegate = delegate;
            this.watchable = watchable;
        }

        @Override
        public boolean isValid() {
            return delegate.isValid();
        }

        @Override
        public List<WatchEvent<?>> pollEvents() {
            List<WatchEvent<?>> events = delegate.pollEvents();
            List<WatchEvent<?>> mine = new ArrayList<>(events.size());
            for (WatchEvent<?> event : events) {
                mine.add(event.context() instanceof Path ? new Event<>(event) : event);   // OVERFLOW: no context
            }
            return mine;
        }

        @Override
        public boolean reset() {
            return delegate.reset();
        }

        @Override
        public void cancel() {
            delegate.cancel();
            if (keys.remove(delegate, this)) {
                cancelled.put(delegate, new Cancelled(this, sequence.incrementAndGet()));
            }
        }

        @Override
        public Watchable watchable() {
            return watchable;
        }

        @Override
        public String toString() {
            return "WatchKey[" + watchable + "]";
        }
    }

    /** An event whose context, a platform path, is given as hpio's. */
    private final class Event<T> implements WatchEvent<T> {
        private final WatchEvent<T> delegate;

        Event(WatchEvent<T> delegate) {
            this.delegate = delegate;
        }

        @Override
        public Kind<T> kind() {
            return delegate.kind();
        }

        @Override
        public int count() {
            return delegate.count();
        }

        @Override
        @SuppressWarnings("unchecked")   // a Path context: hpio's path is a Path too
        public T context() {
            return (T) fileSystem.wrap((Path) delegate.context());
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }
}
