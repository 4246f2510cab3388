package org.hpio.async;

import java.io.IOException;

/** What the Done methods throw for a request that was cancelled (000 §4.1.4): an IOException, as the paper has it. */
public class AsyncIOCanceledException extends IOException {
    private static final long serialVersionUID = 1L;

    public AsyncIOCanceledException(String message) {
        super(message);
    }
}
