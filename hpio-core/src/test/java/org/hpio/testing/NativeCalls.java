package org.hpio.testing;

import org.hpio.internal.sys.NativeAccess;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** For tests of features only hpio's native calls provide: they skip, saying why, where those calls are off. */
public final class NativeCalls {
    private NativeCalls() {
    }

    /** Skips the calling test unless native calls are on; {@code feature} names what needs them. */
    public static void assumeOn(String feature) {
        assumeTrue(NativeAccess.available(), () -> feature + " needs hpio's native calls, which are off: "
                + NativeAccess.unavailableReason());
    }
}
