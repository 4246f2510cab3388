package org.hpio.bench.archive;

import org.hpio.archive.trace.TraceEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The game workload: the same every time, the promised shape, and a tiny replay of it checks its bytes. */
class GameAssetsTest {
    private static final GameAssets GAME = GameAssets.generate();

    @TempDir
    Path work;

    @Test
    void theSameSeedGivesTheSameTreeAndLoadsAndAnotherSeedOthers() {
        GameAssets again = GameAssets.generate();
        assertEquals(GAME.assets(), again.assets());
        assertEquals(GAME.loads(), again.loads());
        assertEquals(GAME.trace(), again.trace());
        assertNotEquals(GAME.loads(), GameAssets.generate(GameAssets.SEED + 1).loads());
    }

    @Test
    void hasTheRealTracesShape() {
        assertEquals(27_052, GAME.loads().size());
        assertEquals(2_256, GAME.assets().size());
        assertEquals(GAME.assets().keySet(), new HashSet<>(GAME.loads()), "every file is loaded");
        long[] sizes = GAME.loads().stream().mapToLong(p -> GAME.assets().get(p).size()).sorted().toArray();
        assertBetween(1.2, 1.6, percentile(sizes, 0.5) / 1024.0, "p50 load, KiB");
        assertBetween(4.8, 6.4, percentile(sizes, 0.9) / 1024.0, "p90 load, KiB");
        assertBetween(55, 75, Arrays.stream(sizes).sum() / 1e6, "MB loaded");
        assertEquals(1, GAME.assets().values().stream().filter(a -> a.size() == GameCatalog.ATLAS_BYTES).count());
        assertEquals(GameCatalog.ATLAS_BYTES, sizes[sizes.length - 1], "the largest file is the 1 MiB atlas");
        long large = GAME.assets().values().stream().filter(a -> a.size() > 64 << 10).count();
        assertBetween(5, 20, large, "a few large files");
    }

    @Test
    void repeatsComeSoonAfter() {
        Deque<String> recent = new ArrayDeque<>();
        int repeatsOfRecent = 0;
        for (String path : GAME.loads()) {
            if (recent.contains(path)) {
                repeatsOfRecent++;
            }
            recent.addLast(path);
            if (recent.size() > 64) {
                recent.removeFirst();
            }
        }
        assertTrue(repeatsOfRecent > GAME.loads().size() / 2, "loads of a file among the last 64: " + repeatsOfRecent);
    }

    @Test
    void aTinyReplayOfEveryCoreRowChecksItsBytes() throws Exception {
        TraceData data = TraceData.prepare(work, GAME, 3 << 20);
        try {
            assertTrue(data.loads().size() > 400, "loads within 3 MiB: " + data.loads().size());
            assertTrue(Files.size(data.deflated()) < 0.8 * Files.size(data.stored()), "Deflate saves something");
            Set<String> repeated = new HashSet<>();
            assertTrue(data.loads().stream().map(TraceEvent::path).anyMatch(p -> !repeated.add(p)), "repeats kept");
            for (ArchiveConfig config : ArchivePlan.coreConfigs(data)) {
                Measured m = Replays.replay(Workload.game(), config, data, null);
                assertEquals(data.userBytes(), m.userBytes(), config.name());
            }
            String first = data.loads().getFirst().path();
            Files.write(data.tree().resolve(first), new byte[Math.toIntExact(data.sizes().get(first))]);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> Replays.replay(Workload.game(), ArchiveConfig.readAllBytes(data), data, null));
            assertTrue(e.getMessage().contains(first), e.getMessage());
        } finally {
            data.delete();
        }
    }

    private static long percentile(long[] sorted, double p) {
        return sorted[(int) (p * (sorted.length - 1))];
    }

    private static void assertBetween(double low, double high, double value, String what) {
        assertTrue(value >= low && value <= high, what + ": " + value + ", expected " + low + "-" + high);
    }
}
