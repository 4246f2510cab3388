package org.hpio.testing;

import org.hpio.Hpio;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs test classes a second time in a child JVM where native access is denied ({@code --illegal-native-access=deny}
 * and no {@code --enable-native-access}: the JDK's announced future default), so that hpio must serve every call
 * on the JDK's own calls (issue 19). The child first checks that hpio says so ({@link Hpio#nativeCalls()} false,
 * the thread-pool engine), then runs the classes with the JUnit launcher and prints
 * {@code succeeded=N failed=N skipped=N}. Shared by the modules' tests through hpio-core's test jar.
 *
 * <pre>{@code
 * DeniedNativeAccess.Result r = DeniedNativeAccess.run(List.of("org.hpio.bulk.ByteOrderTest"));
 * DeniedNativeAccess.run(List.of("org.hpio.bulk.ByteOrderTest")).assertPassed("native access denied", 10);
 * }</pre>
 */
public final class DeniedNativeAccess {
    private DeniedNativeAccess() {
    }

    /** What the child printed and how it ended, with its test counts (-1 when it printed none). */
    public record Result(int exitCode, String stdout, String stderr, long succeeded, long failed, long skipped) {
        public String describe() {
            return "child exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }

        /**
         * Prints the child's report under {@code label}, and checks that it ended well on the thread-pool engine
         * with no test failed and at least {@code atLeast} passed (a representative part of the suite ran).
         */
        public Result assertPassed(String label, long atLeast) {
            System.out.println(label + ": " + statusLines());
            assertEquals(0, exitCode, describe());
            assertTrue(stdout.contains("engine=threads"), describe());
            assertEquals(0, failed, describe());
            assertTrue(succeeded >= atLeast, "a representative part of the suite ran: " + statusLines());
            return this;
        }

        /** The child's own report of hpio's state, for a test's output. */
        public List<String> statusLines() {
            return stdout.lines().filter(l -> l.startsWith("native=") || l.startsWith("engine=")
                    || l.startsWith("succeeded=")).toList();
        }
    }

    /** Runs {@code testClasses} in a child JVM with native access denied, with this JVM's class path; 5 minutes at most. */
    public static Result run(List<String> testClasses) throws IOException, InterruptedException {
        return run(List.of(), testClasses);
    }

    /**
     * {@link #run(List)} with more options for the child JVM: e.g. {@code --enable-native-access=ALL-UNNAMED}
     * with {@code -Dos.name=...} for another OS, which must turn hpio's native calls off just the same.
     */
    public static Result run(List<String> jvmOptions, List<String> testClasses) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        List<String> command = new ArrayList<>(List.of(java, "--illegal-native-access=deny", "-ea", "-Xmx1g",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djunit.jupiter.execution.parallel.enabled=false"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), DeniedNativeAccess.class.getName()));
        command.addAll(testClasses);
        ChildJvm.Output out = ChildJvm.finish(new ProcessBuilder(command).start(), 5,
                "the child with native access denied");
        String stdout = out.stdout();
        Matcher m = Pattern.compile("succeeded=(\\d+) failed=(\\d+) skipped=(\\d+)").matcher(stdout);
        boolean counted = m.find();
        return new Result(out.exitCode(), stdout, out.stderr(),
                counted ? Long.parseLong(m.group(1)) : -1, counted ? Long.parseLong(m.group(2)) : -1,
                counted ? Long.parseLong(m.group(3)) : -1);
    }


    /** The child: {@code DeniedNativeAccess <test class>...}. */
    public static void main(String[] args) throws Exception {
        System.out.println("native=" + Hpio.nativeCalls() + " reason=" + Hpio.nativeCallsOffReason().orElse("-"));
        System.out.println("engine=" + Hpio.engine());
        if (Hpio.nativeCalls()) {
            System.out.println("native calls are on although native access is denied or the OS is not Linux");
            System.exit(2);
        }
        long failed = ChildJvm.runTestClasses(List.of(args), 40);
        System.exit(failed == 0 ? 0 : 1);
    }
}
