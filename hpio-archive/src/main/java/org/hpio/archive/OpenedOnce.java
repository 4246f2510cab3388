package org.hpio.archive;

import java.io.Closeable;
import java.io.IOException;

/**
 * A resource opened by its first use, from any thread, at most once, and closed with its owner: a later use
 * then fails instead of opening it again (nothing is left open behind a closed owner).
 *
 * @param <T> the resource
 */
final class OpenedOnce<T extends AutoCloseable> implements Closeable {
    /** Opens the resource. */
    interface Opener<T> {
        T open() throws IOException;
    }

    private final Opener<T> opener;
    private final String what;
    private volatile T opened;
    private boolean closed;

    /** {@code what}: the resource, for the message of a use after close. */
    OpenedOnce(String what, Opener<T> opener) {
        this.what = what;
        this.opener = opener;
    }

    /** The resource, opened now if this is its first use. */
    T get() throws IOException {
        T t = opened;
        if (t != null) {
            return t;
        }
        synchronized (this) {
            if (closed) {
                throw new IOException(what + " is closed");
            }
            if (opened == null) {
                opened = opener.open();
            }
            return opened;
        }
    }

    /** Closes the resource if it was opened; later uses fail. Idempotent. */
    @Override
    public void close() throws IOException {
        T t;
        synchronized (this) {
            closed = true;
            t = opened;
            opened = null;
        }
        if (t == null) {
            return;
        }
        try {
            t.close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("closing " + what + ": " + e, e);
        }
    }
}
