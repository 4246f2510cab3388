package org.hpio.internal.io;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every waiting case of {@link UringWaitingTest} on a ring whose entries a kernel thread takes (SQPOLL). */
class UringSqPollWaitingTest extends UringWaitingTest {
    @Override
    IoEngine open(EngineConfig config) throws IOException {
        IoEngine engine = IoEngines.openUring(config.withSqPollIdleMillis(UringSqPollEngineTest.IDLE_MILLIS));
        assertTrue(((UringEngine) engine).kernelSubmits(), "the kernel refused SQPOLL (see the warning logged)");
        return engine;
    }
}
