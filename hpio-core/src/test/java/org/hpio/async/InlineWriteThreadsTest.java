package org.hpio.async;

import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;

import java.io.IOException;

/** The same contract on the portable engine, which does small writes inline too. */
class InlineWriteThreadsTest extends InlineWriteContractTest {
    @Override
    IoEngine openEngine(EngineConfig config) throws IOException {
        return IoEngines.openThreads(config);
    }
}
