package org.hpio.internal.io;

import java.io.IOException;

/** A bound of a fail-fast engine was reached: nothing was submitted. */
public final class EngineSaturatedException extends IOException {
    public EngineSaturatedException(String message) {
        super(message);
    }
}
