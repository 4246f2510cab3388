package org.hpio.nio;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A child JVM's program (run by {@link DefaultProviderTest} with hpio's provider named by the JDK's property):
 * initializes the provider's class as the JDK does before constructing it, and looks, before any path is made
 * (so before the JDK makes the default file system and constructs the provider), whether the warm-up thread
 * runs and, its first part done, waits for its provider. Then it makes a path, waits for the warm-up to end and
 * opens a channel, which must be hpio's with its native calls ready.
 */
public final class EarlyWarmUpProgram {
    private EarlyWarmUpProgram() {
    }

    public static void main(String[] args) throws Exception {
        Class.forName("org.hpio.nio.HpioFileSystemProvider");   // initialized, not constructed: no path made yet
        Thread warmUp = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("hpio-native-warm-up")).findFirst().orElse(null);
        System.out.println("warm-up-before-construction=" + (warmUp != null));
        if (warmUp == null) {
            return;
        }
        long deadline = System.nanoTime() + 20_000_000_000L;   // within the warm-up's own wait of 30 s
        boolean waiting = false;
        while (!waiting && System.nanoTime() < deadline) {
            waiting = warmUp.getState() == Thread.State.TIMED_WAITING && Arrays.stream(warmUp.getStackTrace())
                    .anyMatch(frame -> frame.getClassName().equals(HandOver.class.getName())
                            && frame.getMethodName().equals("await"));
            Thread.sleep(5);
        }
        System.out.println("waits-for-provider=" + waiting);
        Path file = Path.of(args[0]).resolve("early.txt");   // the default file system: the provider is made
        warmUp.join(30_000);
        System.out.println("warm-up-ended=" + !warmUp.isAlive());
        try (FileChannel channel = FileChannel.open(file)) {
            System.out.println("channel=" + channel + " ready=" + NativeFiles.channelCallsReady());
        }
    }
}
