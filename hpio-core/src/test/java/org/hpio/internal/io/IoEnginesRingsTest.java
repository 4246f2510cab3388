package org.hpio.internal.io;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link IoEngines#sharedRings}: how many, which kind, and where io_uring is refused (a seccomp child JVM). */
class IoEnginesRingsTest {
    /** Child main: prints the shared rings' count and kinds. */
    static final class RingsProbe {
        public static void main(String[] args) throws Exception {
            List<IoEngine> rings = IoEngines.sharedRings();
            System.out.println("rings=" + rings.size() + " first=" + rings.getFirst().name()
                    + " shared=" + (rings.getFirst() == IoEngines.shared()));
        }
    }

    @Test
    void theSharedRingsAreTheSharedEngineAndMoreLikeItUpToTheCount() throws Exception {
        List<IoEngine> rings = IoEngines.sharedRings();
        assertSame(IoEngines.shared(), rings.getFirst());
        assertSame(rings, IoEngines.sharedRings(), "opened once");
        if (IoEngines.shared().name().equals("uring")) {
            assertEquals(IoEngines.ringCount(), rings.size());
            for (IoEngine ring : rings) {
                assertEquals("uring", ring.name());
                assertEquals(IoEngines.shared().config().maxInFlight(), ring.config().maxInFlight());
            }
            assertEquals(rings.size(), rings.stream().distinct().count(), "each ring an engine of its own");
        } else {
            assertEquals(1, rings.size(), "the portable engine is not repeated");
        }
    }

    @Test
    void theCountIsOnePerCoreUpToTwoUnlessThePropertySaysAndABadValueIsNamed() {
        String before = System.getProperty(IoEngines.RINGS_PROPERTY);
        try {
            System.clearProperty(IoEngines.RINGS_PROPERTY);
            assertEquals(Math.min(2, Runtime.getRuntime().availableProcessors()), IoEngines.ringCount());
            System.setProperty(IoEngines.RINGS_PROPERTY, "3");
            assertEquals(3, IoEngines.ringCount());
            for (String bad : List.of("0", "65", "two", "")) {
                System.setProperty(IoEngines.RINGS_PROPERTY, bad);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, IoEngines::ringCount);
                assertTrue(e.getMessage().contains(IoEngines.RINGS_PROPERTY) && e.getMessage().contains("not " + bad),
                        e.getMessage());
            }
        } finally {
            if (before == null) {
                System.clearProperty(IoEngines.RINGS_PROPERTY);
            } else {
                System.setProperty(IoEngines.RINGS_PROPERTY, before);
            }
        }
    }

    @Test
    void withIoUringRefusedTheRingsAreThePortableEngineAlone() throws Exception {
        SeccompChild.Result r = SeccompChild.run(RingsProbe.class);
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stdout().contains("rings=1 first=threads shared=true"), r.describe());
    }
}
