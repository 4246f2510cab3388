package org.hpio.nio;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A child JVM's program that uses paths and the JDK's own reads only (a platform thread's plain read-only
 * channel is the JDK's), with hpio's provider installed: it opens no hpio channel, so hpio makes no native call
 * the JVM could warn about. Says whether hpio's warm-up thread was running right after the provider was made,
 * and waits a little so that anything started in the background has run.
 */
public final class PathsOnlyProgram {
    private PathsOnlyProgram() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);   // the provider is made here, and with it any warm-up thread
        boolean warmUp = Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("hpio-native-warm-up"));
        System.out.println("warm-up-thread=" + warmUp);
        Path file = dir.resolve("paths-only.txt");
        System.out.println("exists=" + Files.exists(file) + " read=" + Files.readString(file) + " provider="
                + dir.getFileSystem().provider().getClass().getName());
        Thread.sleep(500);
        System.out.println("paths=ok");
    }
}
