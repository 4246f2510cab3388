package org.hpio;

import org.hpio.internal.io.IoEngines;
import org.hpio.internal.sys.Libbz2;
import org.hpio.internal.sys.Libdeflate;
import org.hpio.internal.sys.Libzstd;
import org.hpio.internal.sys.NativeAccess;
import org.hpio.internal.sys.VirtualMemory;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What hpio runs on in this JVM: whether its native calls are on, which engine serves asynchronous I/O, and
 * which native features are active, each with the reason when it is not.
 *
 * <p>hpio works wherever Java 25 runs. Its fast paths are Linux system calls made through the Foreign Function &amp;
 * Memory API; where those are off (another OS, or {@code --illegal-native-access=deny} without
 * {@code --enable-native-access} for hpio, or {@code -Dhpio.native=false}) every public API runs on the JDK's
 * own calls instead ({@code FileChannel} under the bulk API and the portable thread-pool engine,
 * {@code java.util.zip.Inflater} under the archive reader), gives the same results, and logs the reason once. The
 * features that only the native calls provide (O_DIRECT, Zstandard and bzip2 entries) then fail with an error
 * that names the feature and the reason.
 *
 * <pre>{@code
 * if (!Hpio.nativeCalls()) log.info("hpio runs portably: " + Hpio.nativeCallsOffReason().orElseThrow());
 * System.out.println(Hpio.describe());
 * }</pre>
 */
public final class Hpio {
    private Hpio() {
    }

    /** One feature: its name, whether it is active, and why not when it is not. */
    public record Feature(String name, boolean active, Optional<String> whyNot) {
        @Override
        public String toString() {
            return name + ": " + (active ? "on" : "off (" + whyNot.orElse("?") + ")");
        }
    }

    /** Whether hpio's native calls are on (Linux, native access granted, not turned off). */
    public static boolean nativeCalls() {
        return NativeAccess.available();
    }

    /** Why the native calls are off; empty when they are on. */
    public static Optional<String> nativeCallsOffReason() {
        return Optional.ofNullable(NativeAccess.unavailableReason());
    }

    /**
     * The name of the engine that serves {@code AsyncFile}, the archive reader and hpio's channels by default:
     * {@code "uring"} (io_uring) or {@code "threads"} (the portable thread pool). Starts it if it is not yet.
     */
    public static String engine() throws IOException {
        return IoEngines.shared().name();
    }

    /** Every native feature, in a fixed order, each on or off with its reason. */
    public static List<Feature> features() throws IOException {
        String engine = engine();
        String off = NativeAccess.unavailableReason();
        return List.of(
                feature("native calls", off == null, off),
                feature("io_uring", engine.equals("uring"), IoEngines.uringRefusal() != null
                        ? IoEngines.uringRefusal() : "the thread-pool engine was chosen (-Dhpio.engine=threads)"),
                feature("O_DIRECT", off == null, off),
                feature("mapped bulk reads", off == null, off),
                feature("huge pages for I/O memory (IoMemory, staging)", VirtualMemory.hugePagesForIo(),
                        VirtualMemory.hugePagesForIoOffReason()),
                feature("libdeflate (Deflate)", Libdeflate.available(), Libdeflate.unavailableReason()),
                feature("libzstd (Zstandard entries)", Libzstd.available(), Libzstd.unavailableReason()),
                feature("libbz2 (bzip2 entries)", Libbz2.available(), Libbz2.unavailableReason()));
    }

    /** {@link #features()} as lines for a person, the engine first. */
    public static String describe() throws IOException {
        return "engine: " + engine() + "\n"
                + features().stream().map(Feature::toString).collect(Collectors.joining("\n"));
    }

    private static Feature feature(String name, boolean active, String why) {
        return new Feature(name, active, active ? Optional.empty() : Optional.of(why == null ? "unknown" : why));
    }
}
