package org.hpio.nio;

import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FileChannelContract} on hpio's channel opened, and used throughout, before the native calls are ready
 * (a cold JVM's first moments): the JDK's channel on the file serves every call, behind hpio's channel, which
 * must still behave as the JDK's does in every case (positions, exceptions, close).
 */
@ExtendWith(NativeCallsHeld.class)
class HpioOpenedBeforeReadyFileChannelTest extends FileChannelContract {
    @Override
    Implementation implementation() {
        return Implementation.HPIO_URING;
    }

    @Override
    FileChannel open(Path path, OpenOption... options) throws Exception {
        return assertDeferred(super.open(path, options), options);
    }

    /**
     * {@code channel}, having checked that it is the JDK's behind hpio's, unless its options open hpio's
     * descriptor at once (O_DIRECT, DELETE_ON_CLOSE).
     */
    static <C> C assertDeferred(C channel, OpenOption... options) {
        boolean opensNow = Arrays.stream(options).anyMatch(o -> o == StandardOpenOption.DELETE_ON_CLOSE
                || o == HpioOpenOption.DIRECT || o.toString().equals("DIRECT"));
        assertTrue(opensNow || channel.toString().contains("the JDK's channel until"), "deferred: " + channel);
        return channel;
    }
}
