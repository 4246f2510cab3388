package org.hpio.nio;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For each test of a class extended with it, as if the provider's warm-up were still linking the native calls
 * ({@link NativeFiles#holdChannelCallsForTests}): channels opened then are served by the JDK's channel behind
 * hpio's.
 */
final class NativeCallsHeld implements BeforeEachCallback, AfterEachCallback {
    @Override
    public void beforeEach(ExtensionContext context) {
        NativeFiles.holdChannelCallsForTests(true);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        NativeFiles.holdChannelCallsForTests(false);
    }
}
