package org.hpio.nio;

import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.channels.AsynchronousFileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * {@link AsynchronousFileChannelContract} on hpio's channel opened, and used throughout, before the native calls
 * are ready (a cold JVM's first moments): the JDK's channel on the file serves every operation, behind hpio's
 * channel, which must still behave as the JDK's does in every case.
 */
@ExtendWith(NativeCallsHeld.class)
class HpioOpenedBeforeReadyAsynchronousFileChannelTest extends AsynchronousFileChannelContract {
    @Override
    Implementation implementation() {
        return Implementation.HPIO_URING;
    }

    @Override
    AsynchronousFileChannel open(Implementation.Running on, Path path, OpenOption... options) throws Exception {
        return HpioOpenedBeforeReadyFileChannelTest.assertDeferred(super.open(on, path, options), options);
    }
}
