package org.hpio.bench.archive;

import org.hpio.bench.archive.GameCatalog.EntityKind;
import org.hpio.bench.archive.GameCatalog.Level;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The game workload's load list: the start-up files, then each level: its map, music and biome's terrain, the
 * session GUI and shaders again, every file of its two factions' kinds of entity, then entities until the level's
 * share of the loads is used: a kind drawn by popularity (Zipf, a level's own order), placed in a group of 1-8,
 * each entity loading its template, actor, material, mesh and skin again.
 */
final class GameLoads {
    private static final double MEAN_GROUP = 3;

    private GameLoads() {
    }

    /** Exactly {@code total} loads over {@code catalog}'s files; every file is loaded at least once. */
    static List<String> of(GameCatalog catalog, SplittableRandom random, int total) {
        List<String> loads = new ArrayList<>(catalog.startup);
        List<List<String>> preambles = catalog.levels.stream().map(l -> preamble(catalog, l)).toList();
        int entityLoads = total - loads.size() - preambles.stream().mapToInt(List::size).sum();
        if (entityLoads < catalog.levels.size()) {
            throw new IllegalArgumentException(total + " loads are too few for the game's levels");
        }
        for (int i = 0; i < preambles.size(); i++) {
            loads.addAll(preambles.get(i));
            boolean last = i == preambles.size() - 1;
            int share = entityLoads / preambles.size() + (last ? entityLoads % preambles.size() : 0);
            placeEntities(kindsOf(catalog, catalog.levels.get(i)), share, random, loads);
        }
        return List.copyOf(loads);
    }

    private static List<String> preamble(GameCatalog catalog, Level level) {
        List<String> files = new ArrayList<>(List.of(level.mapXml(), level.mapData(), level.music()));
        files.addAll(catalog.terrain.get(level.biome()));
        files.addAll(catalog.reloadedPerLevel);
        for (EntityKind kind : kindsOf(catalog, level)) {
            files.addAll(kind.perEntity());
            files.addAll(kind.once());
        }
        return files;
    }

    private static List<EntityKind> kindsOf(GameCatalog catalog, Level level) {
        return level.factions().stream().flatMap(f -> catalog.entities.get(f).stream()).toList();
    }

    /** Entities of {@code kinds} until {@code share} loads are added (the last entity may be cut short). */
    private static void placeEntities(List<EntityKind> kinds, int share, SplittableRandom random, List<String> loads) {
        double[] popularity = zipfCumulative(kinds.size());
        List<EntityKind> byRank = shuffled(kinds, random);
        int added = 0;
        while (added < share) {
            EntityKind kind = byRank.get(pick(popularity, random));
            int group = Math.min(8, 1 + (int) (-Math.log(1 - random.nextDouble()) * (MEAN_GROUP - 1)));
            for (int e = 0; e < group && added < share; e++) {
                for (String file : kind.perEntity()) {
                    if (added++ < share) {
                        loads.add(file);
                    }
                }
            }
        }
    }

    private static double[] zipfCumulative(int n) {
        double[] c = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1.0 / (i + 1);
            c[i] = sum;
        }
        for (int i = 0; i < n; i++) {
            c[i] /= sum;
        }
        return c;
    }

    private static int pick(double[] cumulative, SplittableRandom random) {
        int i = Arrays.binarySearch(cumulative, random.nextDouble());
        return Math.min(cumulative.length - 1, i >= 0 ? i : -i - 1);
    }

    private static <T> List<T> shuffled(List<T> items, SplittableRandom random) {
        List<T> copy = new ArrayList<>(items);
        for (int i = copy.size() - 1; i > 0; i--) {
            Collections.swap(copy, i, random.nextInt(i + 1));
        }
        return copy;
    }
}
