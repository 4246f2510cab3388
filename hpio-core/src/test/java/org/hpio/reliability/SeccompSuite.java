package org.hpio.reliability;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;
import org.hpio.internal.io.IoEngines;
import org.hpio.testing.ChildJvm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

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
        long failed = ChildJvm.runTestClasses(List.of(CLASSES), 30);
        System.exit(failed == 0 ? 0 : 1);
    }
}
