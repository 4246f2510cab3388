package org.hpio.nio;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A child JVM's program that uses paths and the JDK's own reads only (a platform thread's plain read-only
 * channel is the JDK's), with hpio's provider installed: it opens no hpio channel, so hpio makes no native call
 * the JVM could warn about. Waits a little so that anything started in the background has run.
 */
public final class PathsOnlyProgram {
    private PathsOnlyProgram() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path file = dir.resolve("paths-only.txt");
        System.out.println("exists=" + Files.exists(file) + " read=" + Files.readString(file) + " provider="
                + dir.getFileSystem().provider().getClass().getName());
        Thread.sleep(500);
        System.out.println("paths=ok");
    }
}
