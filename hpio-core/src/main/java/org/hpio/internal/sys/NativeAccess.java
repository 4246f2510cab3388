package org.hpio.internal.sys;

import java.lang.foreign.MemorySegment;

/**
 * Whether hpio may make its native calls at all: the one gate every native path asks before it touches
 * {@link Syscalls}, io_uring or the mapped-memory helpers (issue 19: hpio works wherever Java 25 runs).
 *
 * <p>Native calls are off, and every public API runs on the JDK's own calls instead ({@code FileChannel} under
 * the bulk API and the portable engine, {@code java.util.zip.Inflater} under the archive reader), when:
 * <ul>
 *   <li>the OS is not Linux (hpio's calls and struct layouts are Linux's);</li>
 *   <li>the JVM refuses native access to hpio's module ({@code --illegal-native-access=deny} without
 *       {@code --enable-native-access} naming hpio, the JDK's announced future default);</li>
 *   <li>the user turns them off with {@code -Dhpio.native=false}.</li>
 * </ul>
 * The decision is made once, on first use, and logged once (System.Logger, level INFO) with its reason.
 */
public final class NativeAccess {
    private static final String UNAVAILABLE = probe();

    private NativeAccess() {
    }

    /** Whether native calls may be made (Linux, native access granted, not turned off). */
    public static boolean available() {
        return UNAVAILABLE == null;
    }

    /** Why native calls are off, or null when they are on. */
    public static String unavailableReason() {
        return UNAVAILABLE;
    }

    /** An error for {@code feature}, which only the native calls provide, saying why they are off. */
    public static UnsupportedOperationException unsupported(String feature) {
        return new UnsupportedOperationException(feature + " needs hpio's native calls, which are off: " + UNAVAILABLE);
    }

    private static String probe() {
        String why = reasonOff();
        if (why != null) {
            System.getLogger("org.hpio").log(System.Logger.Level.INFO, "hpio: native calls are off: " + why
                    + ". hpio uses the JDK's FileChannel, a thread-pool engine and java.util.zip instead: the same "
                    + "results, slower; no O_DIRECT, Zstandard or bzip2");
        }
        return why;
    }

    private static String reasonOff() {
        if (!Boolean.parseBoolean(System.getProperty("hpio.native", "true"))) {
            return "turned off by -Dhpio.native=false";
        }
        String os = System.getProperty("os.name", "");
        if (!os.equals("Linux")) {
            return "hpio's native calls are Linux's and this is " + os;
        }
        try {
            MemorySegment.NULL.reinterpret(1);   // a restricted call: refused where native access is denied
            return null;
        } catch (IllegalCallerException denied) {
            Module module = NativeAccess.class.getModule();
            return "the JVM denies native access to " + (module.isNamed() ? "module " + module.getName()
                    : "the class path") + " (run with --enable-native-access="
                    + (module.isNamed() ? module.getName() : "ALL-UNNAMED") + ")";
        }
    }
}
