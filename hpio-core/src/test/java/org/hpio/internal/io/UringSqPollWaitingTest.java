package org.hpio.internal.io;

import java.io.IOException;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Every waiting case of {@link UringWaitingTest} on a ring whose entries a kernel thread takes (SQPOLL). */
class UringSqPollWaitingTest extends UringWaitingTest {
    @Override
    IoEngine open(EngineConfig config) throws IOException {
        IoEngine engine = IoEngines.openUring(config.withSqPollIdleMillis(UringSqPollEngineTest.IDLE_MILLIS));
        if (!((UringEngine) engine).kernelSubmits()) {
            engine.close();   // the kernel refused SQPOLL (the warning says why): nothing here to test
            assumeTrue(false, "the kernel refused a kernel submission thread (SQPOLL) here");
        }
        return engine;
    }
}
