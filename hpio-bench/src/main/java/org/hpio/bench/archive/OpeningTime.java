package org.hpio.bench.archive;

import org.hpio.archive.Archive;
import org.hpio.archive.LoadedFile;
import org.hpio.bench.machine.PageCache;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

import static org.hpio.bench.report.Numbers.twoOrOneDecimals;

/** The archive suite's last table: the time to open an archive of many entries, hpio against ZipFile. */
final class OpeningTime {
    static final int OPEN_ENTRIES = 50_000;

    private OpeningTime() {
    }

    /** Opening an archive of {@value #OPEN_ENTRIES} entries: hpio against ZipFile, warm, median of 9. */
    static void measure(SuiteReport report, Path workDir) throws IOException {
        Path zip = workDir.resolve("many-entries.zip");
        try {
            try (ZipOutputStream z = new ZipOutputStream(new BufferedOutputStream(Files.newOutputStream(zip), 1 << 20))) {
                z.setLevel(1);
                for (int i = 0; i < OPEN_ENTRIES; i++) {
                    z.putNextEntry(new ZipEntry("data/dir" + i % 250 + "/file-" + i + ".txt"));
                    z.write(("entry " + i).getBytes());
                    z.closeEntry();
                }
            }
            PageCache.warm(zip);
            for (int r = 0; r < 5; r++) { // untimed warm-up of both
                try (Archive a = Archive.open(zip); ZipFile z = new ZipFile(zip.toFile())) {
                    checkOpened(a, r);
                }
            }
            double[] hpio = new double[9];
            double[] jdk = new double[9];
            for (int r = 0; r < hpio.length; r++) {
                long t0 = System.nanoTime();
                try (Archive a = Archive.open(zip)) {
                    hpio[r] = (System.nanoTime() - t0) / 1e6;
                    checkOpened(a, r);
                }
                t0 = System.nanoTime();
                try (ZipFile z = new ZipFile(zip.toFile())) {
                    jdk[r] = (System.nanoTime() - t0) / 1e6;
                    if (z.size() != OPEN_ENTRIES) {
                        throw new IllegalStateException("ZipFile saw " + z.size() + " entries");
                    }
                }
            }
            Arrays.sort(hpio);
            Arrays.sort(jdk);
            Table t = new Table("Opening an archive of " + OPEN_ENTRIES + " entries (warm, after 5 untimed opens, median of 9)",
                    List.of("configuration", "ms", "archive bytes"));
            t.row("hpio Archive.open", twoOrOneDecimals(hpio[4]), String.valueOf(Files.size(zip)));
            t.row("java.util.zip.ZipFile", twoOrOneDecimals(jdk[4]), String.valueOf(Files.size(zip)));
            t.note("Each open parses the whole central directory; hpio's index is checked by loading one entry by name.");
            report.table(t);
            report.result("archive-open-" + OPEN_ENTRIES, "open-time", hpio[4] / 1e3, "s");
            report.result("zipfile-open-" + OPEN_ENTRIES, "open-time", jdk[4] / 1e3, "s");
        } finally {
            Files.deleteIfExists(zip);
        }
    }

    private static void checkOpened(Archive a, int round) throws IOException {
        int i = (round * 7919) % OPEN_ENTRIES;
        if (a.size() != OPEN_ENTRIES) {
            throw new IllegalStateException("Archive.open saw " + a.size() + " entries, wrote " + OPEN_ENTRIES);
        }
        try (LoadedFile f = a.load("data/dir" + i % 250 + "/file-" + i + ".txt")) {
            String text = new String(f.toByteArray());
            if (!text.equals("entry " + i)) {
                throw new IllegalStateException("entry " + i + " holds '" + text + "'");
            }
        }
    }
}
