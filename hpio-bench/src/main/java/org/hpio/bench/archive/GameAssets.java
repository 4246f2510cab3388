package org.hpio.bench.archive;

import org.hpio.archive.trace.Trace;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.archive.trace.TraceRun;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The small-file workload: a game's asset loading, generated from a seed (same seed, same files, same loads). Its
 * shape is a real game's load trace: 27,052 loads of 2,256 distinct files, 63 MB loaded, p50 load 1.4 KiB, p90
 * 5.6 KiB, one file of 1 MiB and a few large (maps, music). The tree ({@link GameCatalog}) holds GUI pages,
 * shaders, materials and fonts shared by every level, terrain of six biomes, and per faction its units' and
 * structures' templates, actors, meshes, skins, portraits and sounds. The loads ({@link GameLoads}): the shared
 * files at start-up, then eight levels, each loading its map, its biome's terrain, the session GUI and shaders
 * again, every asset of its two factions (factions recur across levels), then its entities one by one in groups
 * of a kind, each entity loading its template, actor, material, mesh and skin again: repeats with locality.
 * Text assets are XML-like words (Deflate shrinks them 3-4x), PNG and Ogg random bytes (stored), textures, meshes
 * and maps half of each.
 */
final class GameAssets implements TraceSource {
    static final long SEED = 0x6A3E_A55E_7L;
    static final int LOADS = 27_052;
    static final int DISTINCT_FILES = 2_256;

    /** One file of the tree. */
    record Asset(String path, long size, PseudoContent.Kind kind) {
    }

    private final Map<String, Asset> assets;
    private final List<String> loads;

    private GameAssets(Map<String, Asset> assets, List<String> loads) {
        this.assets = assets;
        this.loads = loads;
    }

    /** The workload at its real shape: {@value #LOADS} loads of {@value #DISTINCT_FILES} files. */
    static GameAssets generate() {
        return generate(SEED);
    }

    static GameAssets generate(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        GameCatalog catalog = GameCatalog.build(random.split(), DISTINCT_FILES);
        List<String> loads = GameLoads.of(catalog, random.split(), LOADS);
        Map<String, Asset> assets = new LinkedHashMap<>();
        catalog.assets().forEach(a -> assets.put(a.path(), a));
        return new GameAssets(assets, loads);
    }

    /** The files, by path, in the order they were made. */
    Map<String, Asset> assets() {
        return assets;
    }

    /** The load list, in order. */
    List<String> loads() {
        return loads;
    }

    @Override
    public String name() {
        return "game asset loading (generated, seed " + Long.toHexString(SEED) + "; the shape of a real game's load "
                + "trace: " + LOADS + " loads of " + DISTINCT_FILES + " files, mostly 0.3-6 KiB)";
    }

    /** One run: a load every 40 µs. */
    @Override
    public Trace trace() {
        List<TraceEvent> events = new ArrayList<>(loads.size());
        for (int i = 0; i < loads.size(); i++) {
            String path = loads.get(i);
            events.add(TraceEvent.load(i * 40e-6, path, assets.get(path).size()));
        }
        return new Trace(List.of(new TraceRun(events)));
    }

    @Override
    public boolean write(String path, long size, Path target) throws IOException {
        Asset a = assets.get(path);
        if (a == null || a.size() != size) {
            throw new IOException("the game workload has no file " + path + " of " + size + " bytes");
        }
        PseudoContent.write(target, size, a.kind(), PseudoContent.GAME_WORDS, path.hashCode());
        return false;
    }

    @Override
    public String describeFiles(int standIns, int files) {
        return "none: all " + files + " files generated (text assets XML-like words, PNG and Ogg random bytes, "
                + "textures, meshes and maps half of each)";
    }
}
