package org.hpio.reliability;

import org.hpio.internal.io.SeccompChild;
import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * io_uring refused (a seccomp filter answering ENOSYS, as on a kernel without it) for a child JVM: the fallback
 * engine serves everything, and a representative part of the suite ({@link SeccompSuite#CLASSES}) passes there.
 */
class SeccompSuiteTest {
    @Test
    void withIoUringRefusedTheFallbackEngineServesTheSuite() throws Exception {
        SeccompChild.Result r = SeccompChild.run(SeccompSuite.class);
        System.out.println("seccomp child: " + r.stdout().lines().filter(l -> l.startsWith("succeeded=")
                || l.startsWith("shared=") || l.startsWith("roundtrip=")).toList());
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stdout().contains("shared=threads"), r.describe());
        assertTrue(r.stdout().contains("roundtrip=ok"), r.describe());
        Matcher m = Pattern.compile("succeeded=(\\d+) failed=(\\d+) skipped=(\\d+)").matcher(r.stdout());
        assertTrue(m.find(), r.describe());
        assertEquals(0, Integer.parseInt(m.group(2)), r.describe());
        assertTrue(Integer.parseInt(m.group(1)) >= 100, "a representative part of the suite ran: " + m.group());
    }
}
