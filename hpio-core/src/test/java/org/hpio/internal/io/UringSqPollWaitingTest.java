package org.hpio.internal.io;

import java.io.IOException;

/** Every waiting case of {@link UringWaitingTest} on a ring whose entries a kernel thread takes (SQPOLL). */
class UringSqPollWaitingTest extends UringWaitingTest {
    @Override
    IoEngine open(EngineConfig config) throws IOException {
        return UringSqPollEngineTest.openKernelSubmitting(config);
    }
}
