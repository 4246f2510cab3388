package org.hpio.testing;

import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * The two halves of a test suite run again in a child JVM: the parent's wait for the child (output read on threads
 * of their own, so that the time limit holds even if the child hangs), and the child's run of test classes with
 * the JUnit launcher, which prints {@code succeeded=N failed=N skipped=N}. Used by {@link DeniedNativeAccess} and
 * the io_uring-refused (seccomp) suite.
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /** What a child printed and how it ended. */
    public record Output(int exitCode, String stdout, String stderr) {
    }

    /** Waits at most {@code minutes} for {@code process} (whose stdin it closes); {@code what} names it on a timeout. */
    public static Output finish(Process process, int minutes, String what) throws IOException, InterruptedException {
        process.getOutputStream().close();
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()),
                Thread::startVirtualThread);
        CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()),
                Thread::startVirtualThread);
        if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(what + " did not end in " + minutes + " minutes; it printed:\n"
                    + stdout.join() + stderr.join());
        }
        return new Output(process.exitValue(), stdout.join(), stderr.join());
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * In the child: runs the test classes named, prints up to {@code maxFailures} failures and the line
     * {@code succeeded=N failed=N skipped=N}; returns the number of failures.
     */
    public static long runTestClasses(List<String> classNames, int maxFailures) throws ClassNotFoundException {
        LauncherDiscoveryRequestBuilder builder = LauncherDiscoveryRequestBuilder.request();
        for (String name : classNames) {
            builder.selectors(selectClass(Class.forName(name)));
        }
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(builder.build(), listener);
        TestExecutionSummary summary = listener.getSummary();
        summary.printFailuresTo(new PrintWriter(System.out, true), maxFailures);
        System.out.println("succeeded=" + summary.getTestsSucceededCount() + " failed=" + summary.getTotalFailureCount()
                + " skipped=" + (summary.getTestsAbortedCount() + summary.getTestsSkippedCount()));
        System.out.flush();
        return summary.getTotalFailureCount();
    }
}
