package org.hpio.archive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Child main of {@link ArchiveCrashTest}: {@code ArchiveCrashWriter TREE TARGET} rebuilds TARGET from TREE
 * over and over, each round with new content (every file's bytes depend on the round), printing
 * {@code built R} after round R's archive was written. Runs until killed.
 */
final class ArchiveCrashWriter {
    static final int FILES = 24;

    private ArchiveCrashWriter() {
    }

    /** File {@code i}'s content in round {@code round}: text or random bytes, up to ~200 KiB. */
    static byte[] content(int i, int round) {
        int size = 1000 + (i * 7919) % 200_000;
        return i % 2 == 0 ? TestTrees.text(size, round * 100 + i) : TestTrees.random(size, round * 100L + i);
    }

    static String name(int i) {
        return "d" + (i % 3) + "/f" + i + (i % 2 == 0 ? ".txt" : ".bin");
    }

    public static void main(String[] args) throws IOException {
        Path tree = Path.of(args[0]);
        Path target = Path.of(args[1]);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < FILES; i++) {
            names.add(name(i));
        }
        for (int round = 0; ; round++) {
            for (int i = 0; i < FILES; i++) {
                Path file = tree.resolve(name(i));
                Files.createDirectories(file.getParent());
                Files.write(file, content(i, round));
            }
            Files.writeString(tree.resolve("round.txt"), Integer.toString(round));
            List<String> all = new ArrayList<>(names);
            all.add("round.txt");
            new ArchiveBuilder(tree).addAll(all).write(target);
            System.out.println("built " + round);
            System.out.flush();
        }
    }
}
