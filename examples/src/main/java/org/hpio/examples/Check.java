package org.hpio.examples;

/** The examples' one assertion: a failed check ends the example (and the examples build) with a message. */
final class Check {
    private Check() {
    }

    static void that(boolean holds, String what) {
        if (!holds) {
            throw new AssertionError("example check failed: " + what);
        }
    }
}
