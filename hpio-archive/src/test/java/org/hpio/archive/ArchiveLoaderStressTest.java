package org.hpio.archive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ArchiveLoader} under random lists (repeats, missing and damaged entries, stored and Deflate, O_DIRECT),
 * random look-aheads (files, bytes, read size, workers, reuse) and random callers (closing early, keeping files
 * past the loader, closing them from other threads): right bytes and names, every run freed, and at the end of
 * a list no memory counted. 40 lists per combination by default ({@code -Dhpio.test.loaderLists=N}).
 */
class ArchiveLoaderStressTest {
    @TempDir
    Path dir;

    /** A private field of the loader (its accounting), for white-box checks. */
    static Object field(Object o, String name) throws Exception {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    Path build(Map<String, byte[]> files, String name, double minSavings, boolean damage) throws IOException {
        Path zip = TestTrees.zip(dir, name, files, minSavings);
        if (damage) {
            TestTrees.damage(zip, "many/f3.txt");
        }
        return zip;
    }

    @Test
    void randomListsLookAheadsAndCallersGetTheirBytesAndFreeEverything() throws Exception {
        Map<String, byte[]> files = ArchiveLoadTest.files();
        List<String> names = new ArrayList<>(files.keySet());
        ExecutorService closer = Executors.newFixedThreadPool(2);
        int iters = Integer.getInteger("hpio.test.loaderLists", 40);
        for (double minSavings : new double[] {0.0, 1.0}) {
            for (boolean damage : new boolean[] {false, true}) {
                Path zip = build(files, "z" + minSavings + damage + ".zip", minSavings, damage);
                for (boolean direct : new boolean[] {false, true}) {
                    try (Archive archive = Archive.open(zip, LoadOptions.defaults().withDirect(direct))) {
                        for (int seed = 0; seed < iters; seed++) {
                            Random r = new Random(seed * 31L + (damage ? 7 : 0) + (direct ? 13 : 0));
                            int n = 1 + r.nextInt(120);
                            int distinct = 1 + r.nextInt(names.size());
                            List<String> pool = new ArrayList<>(names);
                            Collections.shuffle(pool, r);
                            pool = pool.subList(0, distinct);
                            List<String> paths = new ArrayList<>();
                            for (int i = 0; i < n; i++) {
                                paths.add(r.nextInt(40) == 0 ? "missing/x" : pool.get(r.nextInt(pool.size())));
                            }
                            int[] fileChoices = {1, 2, 3, 4, 7, 16, 1024};
                            long[] byteChoices = {64 << 10, 100 << 10, 256 << 10, 1 << 20, 64L << 20};
                            int[] readChoices = {32 << 10, 64 << 10, 1 << 20};
                            LookAhead ahead = new LookAhead(fileChoices[r.nextInt(fileChoices.length)],
                                    byteChoices[r.nextInt(byteChoices.length)], readChoices[r.nextInt(readChoices.length)],
                                    r.nextInt(4), r.nextInt(5) != 0);
                            int stopAt = r.nextInt(3) == 0 ? r.nextInt(n + 1) : n;
                            int live = ReadRun.LIVE.get();
                            List<LoadedFile> kept = new ArrayList<>();
                            List<Future<?>> fut = new ArrayList<>();
                            String what = "seed " + seed + " " + ahead + " direct " + direct + " damage " + damage + " savings " + minSavings + " paths " + paths;
                            ArchiveLoader loader = archive.loader(paths, ahead);
                            try {
                                for (int i = 0; i < stopAt; i++) {
                                    String p = paths.get(i);
                                    if (p.equals("missing/x")) {
                                        assertThrows(NoSuchFileException.class, loader::next, what);
                                    } else if (damage && p.equals("many/f3.txt")) {
                                        assertThrows(ArchiveFormatException.class, loader::next, what);
                                    } else {
                                        LoadedFile f = loader.next();
                                        assertEquals(p, f.name(), what);
                                        assertArrayEquals(files.get(p), f.toByteArray(), what + " at " + i);
                                        int k = r.nextInt(4);
                                        if (k == 0) {
                                            kept.add(f);
                                        } else if (k == 1) {
                                            fut.add(closer.submit(f::close));
                                        } else {
                                            f.close();
                                        }
                                    }
                                }
                                if (stopAt == n) {
                                    assertEquals(0L, (long) field(loader, "windowBytes"), what);
                                    assertEquals(0, (int) field(loader, "aheadFiles"), what);
                                    Object book = field(loader, "book");
                                    assertEquals(0L, (long) field(book, "keptBytes"), what);
                                    assertEquals(0L, (long) field(book, "freeableBytes"), what);
                                    assertTrue(((Map<?, ?>) field(book, "holders")).isEmpty(), what + " holders " + field(book, "holders"));
                                    assertTrue(((Map<?, ?>) field(book, "idle")).isEmpty(), what);
                                }
                            } finally {
                                if (r.nextBoolean()) {
                                    loader.close();
                                    for (LoadedFile f : kept) {
                                        assertArrayEquals(files.get(f.name()), f.toByteArray(), what);
                                        f.close();
                                    }
                                } else {
                                    for (LoadedFile f : kept) {
                                        f.close();
                                    }
                                    loader.close();
                                }
                                for (Future<?> f : fut) {
                                    f.get();
                                }
                            }
                            assertEquals(live, ReadRun.LIVE.get(), "leak: " + what);
                        }
                    }
                }
            }
        }
        closer.shutdown();
    }
}
