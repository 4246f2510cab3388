package org.hpio.reliability;

import org.hpio.testing.DeniedNativeAccess;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With native access denied (the JDK's future default), every public API of hpio-core works on the JDK's own
 * calls: the contract suites of the bulk API, AsyncFile, the portable engine and hpio's channels pass a second
 * time in a child JVM started with {@code --illegal-native-access=deny} ({@link DeniedNativeAccess}). Their
 * io_uring and O_DIRECT cases skip there, saying why.
 */
class NativeAccessDeniedTest {
    static final List<String> CLASSES = List.of(
            "org.hpio.HpioTest",
            "org.hpio.bulk.ByteOrderTest",
            "org.hpio.bulk.BooleanBytesPropertyTest",
            "org.hpio.bulk.InterleavingPropertyTest",
            "org.hpio.bulk.LargeOffsetTest",
            "org.hpio.bulk.ErrorHandlingTest",
            "org.hpio.bulk.FileStreamChannelTest",
            "org.hpio.bulk.InterleavingTest",
            "org.hpio.bulk.NestedArrayIOTest",
            "org.hpio.bulk.RandomAccessFileRoundTripPropertyTest",
            "org.hpio.bulk.StreamRoundTripPropertyTest",
            "org.hpio.bulk.TruncatedFileReadTest",
            "org.hpio.bulk.SharedFileConcurrencyTest",
            "org.hpio.bulk.ReadStrategyTest",
            "org.hpio.async.AsyncFileThreadsTest",
            "org.hpio.async.AsyncFileStateTest",
            "org.hpio.async.InlineWriteThreadsTest",
            "org.hpio.async.FaultMatrixTest",
            "org.hpio.async.InlineWritesTest",
            "org.hpio.async.InlineWriteOrderingTest",
            "org.hpio.async.WriteFloodTest",
            "org.hpio.internal.io.IoRequestTest",
            "org.hpio.internal.io.ThreadPoolEngineTest",
            "org.hpio.internal.mem.MemoryPoolTest",
            "org.hpio.nio.HpioThreadsFileChannelTest",
            "org.hpio.nio.HpioThreadsAsynchronousFileChannelTest",
            "org.hpio.nio.HpioChannelsTest");

    @Test
    void withNativeAccessDeniedTheContractSuitesPassOnTheJdksCalls() throws Exception {
        DeniedNativeAccess.Result r = DeniedNativeAccess.run(CLASSES).assertPassed("native access denied", 200);
        assertTrue(r.stderr().contains("hpio: native calls are off: the JVM denies native access"), r.describe());
    }

    /**
     * On an OS other than Linux (macOS, Windows: here the JVM is told it runs on macOS) hpio's native calls are off
     * even where native access is granted, and the same part of the suite passes on the JDK's calls.
     */
    @Test
    void onAnotherOsTheJdksCallsServeEvenWithNativeAccessGranted() throws Exception {
        DeniedNativeAccess.Result r = DeniedNativeAccess.run(
                List.of("--enable-native-access=ALL-UNNAMED", "-Dos.name=Mac OS X"),
                List.of("org.hpio.HpioTest", "org.hpio.bulk.ByteOrderTest", "org.hpio.async.AsyncFileThreadsTest",
                        "org.hpio.nio.HpioThreadsFileChannelTest")).assertPassed("another OS", 50);
        assertTrue(r.stdout().contains("reason=hpio's native calls are Linux's and this is Mac OS X"), r.describe());
    }
}
