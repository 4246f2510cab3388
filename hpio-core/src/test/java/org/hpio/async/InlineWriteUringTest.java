package org.hpio.async;

import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;

import java.io.IOException;

class InlineWriteUringTest extends InlineWriteContractTest {
    @Override
    IoEngine openEngine(EngineConfig config) throws IOException {
        return IoEngines.openUring(config);
    }
}
