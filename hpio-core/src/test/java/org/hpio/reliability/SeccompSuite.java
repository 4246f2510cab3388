package org.hpio.reliability;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;
import org.hpio.internal.io.IoEngines;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Child main of {@link SeccompSuiteTest}, run by {@code SeccompChild} where io_uring is refused: checks that the
 * shared engine is the fallback and serves AsyncFile, then runs a representative part of the test suite with
 * the JUnit launcher (the AsyncFile contract, the injected-fault matrix, real kernel errors, engine and bulk
 * tests, the contracts of hpio's FileChannel and AsynchronousFileChannel; their io_uring cases skip) and prints the summary: {@code succeeded=N failed=N skipped=N}.
 */
public final class SeccompSuite {
    static final String[] CLASSES = {
            "org.hpio.async.AsyncFileThreadsTest",
            "org.hpio.async.AsyncFileStateTest",
            "org.hpio.async.FaultMatrixTest",
            "org.hpio.async.RealKernelErrorsTest",
            "org.hpio.internal.io.ThreadPoolEngineTest",
            "org.hpio.bulk.InterleavingTest",
            "org.hpio.bulk.ErrorHandlingTest",
            "org.hpio.bulk.SharedFileConcurrencyTest",
            "org.hpio.nio.HpioThreadsFileChannelTest",
            "org.hpio.nio.HpioThreadsAsynchronousFileChannelTest",
    };

    private SeccompSuite() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty(FaultTable.FILE_PROPERTY, "target/reliability/faults-seccomp.txt");
        System.out.println("shared=" + IoEngines.shared().name());
        Path file = Files.createTempFile("hpio-seccomp", ".bin");
        try (AsyncFile f = new AsyncFile(file, "rw")) {
            long[] out = {1, 2, 3, Long.MIN_VALUE};
            f.writeArrayDurably(0, out, 0, out.length, true).done();
            long[] in = new long[4];
            AsyncFileRequest r = f.readArray(0, in);
            r.done();
            System.out.println("roundtrip=" + (Arrays.equals(in, out) ? "ok" : "bad"));
        } finally {
            Files.deleteIfExists(file);
        }
        LauncherDiscoveryRequestBuilder builder = LauncherDiscoveryRequestBuilder.request();
        for (String name : CLASSES) {
            builder.selectors(selectClass(Class.forName(name)));
        }
        LauncherDiscoveryRequest request = builder.build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request, listener);
        TestExecutionSummary summary = listener.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        summary.printFailuresTo(out, 30);
        System.out.println("succeeded=" + summary.getTestsSucceededCount() + " failed=" + summary.getTotalFailureCount()
                + " skipped=" + (summary.getTestsAbortedCount() + summary.getTestsSkippedCount()));
        System.out.flush();
        System.exit(summary.getTotalFailureCount() == 0 ? 0 : 1);
    }
}
