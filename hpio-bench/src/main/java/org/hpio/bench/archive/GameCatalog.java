package org.hpio.bench.archive;

import org.hpio.bench.archive.GameAssets.Asset;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The game workload's tree, with the groups its loads draw from: files every level shares, music, each biome's
 * terrain, each level's map, and each faction's kinds of entity. Sizes: a log-normal around 1.4 KiB (p90 5.6 KiB,
 * cut to 96 B - 8 KiB) for every file but the large ones: one 1 MiB texture atlas, the maps and the music.
 */
final class GameCatalog {
    static final long ATLAS_BYTES = 1 << 20;
    private static final double MEDIAN_BYTES = 1.4 * 1024;
    private static final double SIGMA = 1.1 * Math.log(5.6 / 1.4) / 1.2816; // p90 of the loads 5.6 KiB
    private static final long MIN_BYTES = 96;
    private static final long MAX_BYTES = 8 << 10;

    static final List<String> FACTIONS = List.of("athen", "brit", "cart", "gaul", "iber", "kush", "mace", "maur",
            "pers", "ptol", "rome", "spart");
    static final List<String> BIOMES = List.of("mediterranean", "temperate", "desert", "tropic", "alpine", "savanna");
    private static final List<String> UNITS = List.of("infantry_spearman", "infantry_swordsman",
            "infantry_javelineer", "infantry_archer", "infantry_slinger", "cavalry_spearman", "cavalry_javelineer",
            "cavalry_archer", "champion_infantry", "champion_cavalry", "support_female_citizen", "support_healer",
            "hero_general", "siege_ram");
    private static final List<String> STRUCTURES = List.of("civil_centre", "house", "barracks", "stable", "temple",
            "market", "dock", "fortress", "defense_tower", "storehouse", "farmstead", "field");
    private static final List<String> GUI_PAGES = List.of("session", "loading", "pregame", "common", "summary",
            "options", "lobby");
    private static final List<String> GUI_FILES = List.of("page", "setup", "styles", "sprites", "menu", "panel",
            "tooltips", "buttons", "icons", "layout");
    private static final List<String> UI_TEXTURES = List.of("background", "button", "frame", "panel", "bar", "icon",
            "border", "cursor", "tab", "slider", "check", "scroll");
    private static final List<String> SHADERS = List.of("model_common", "terrain_common", "water_high", "sky_simple",
            "particle", "overlay_line", "minimap", "los", "solid", "gui_text", "gui_basic", "debug_line", "shadow",
            "postproc", "blur", "hdr", "fxaa", "foreground_overlay");
    private static final List<String> MATERIALS = List.of("player_trans", "player_trans_spec", "player_trans_norm",
            "player_trans_ao", "basic_trans", "basic_spec", "basic_norm", "objectcolor", "no_cull", "terrain_base",
            "terrain_blend", "terrain_norm", "water", "foliage", "wind", "alpha_blend", "glow", "rock", "wood_spec",
            "metal_spec", "cloth", "banner", "ship_wake", "ruins", "snow", "sand", "grass", "mud", "road", "ice");
    private static final List<String> FONTS = List.of("sans-10", "sans-12", "sans-14", "sans-bold-12",
            "sans-bold-16", "serif-14", "mono-10", "sans-stroke-13");
    private static final List<String> TERRAINS = List.of("grass_a", "grass_b", "dirt_a", "dirt_b", "rocks",
            "cliff", "sand", "shore", "forest_floor", "road", "farmland", "path");
    private static final List<String> ICON_KINDS = List.of("resources", "commands", "stances", "formations",
            "technologies", "auras");

    /** A kind of entity: the files it loads each time one is placed, and those loaded once per level. */
    record EntityKind(List<String> perEntity, List<String> once) {
    }

    /** A level: its map's two files, its biome, its two factions, its music. */
    record Level(String mapXml, String mapData, String biome, List<String> factions, String music) {
    }

    private final SplittableRandom random;
    private final Map<String, Asset> assets = new LinkedHashMap<>();
    final List<String> startup = new ArrayList<>();
    final List<String> reloadedPerLevel = new ArrayList<>();
    final Map<String, List<String>> terrain = new LinkedHashMap<>();
    final Map<String, List<EntityKind>> entities = new LinkedHashMap<>();
    final List<Level> levels = new ArrayList<>();

    private GameCatalog(SplittableRandom random) {
        this.random = random;
    }

    /** The tree of exactly {@code distinctFiles} files. */
    static GameCatalog build(SplittableRandom random, int distinctFiles) {
        GameCatalog c = new GameCatalog(random);
        c.addShared();
        BIOMES.forEach(c::addBiome);
        FACTIONS.forEach(c::addFaction);
        c.addLevels();
        c.fillWithIcons(distinctFiles);
        return c;
    }

    List<Asset> assets() {
        return List.copyOf(assets.values());
    }

    private void addShared() {
        startup.add(add("config/default.cfg"));
        startup.add(add("art/textures/ui/loading/atlas.dds", ATLAS_BYTES));
        for (String page : GUI_PAGES) {
            List<String> files = new ArrayList<>();
            GUI_FILES.forEach(f -> files.add(add("gui/" + page + "/" + f + ".xml")));
            UI_TEXTURES.forEach(t -> files.add(add("art/textures/ui/" + page + "/" + t + ".png")));
            startup.addAll(files);
            if (page.equals("session") || page.equals("loading")) {
                reloadedPerLevel.addAll(files);
            }
        }
        for (String s : SHADERS) {
            List<String> program = List.of(add("shaders/glsl/" + s + ".vs"), add("shaders/glsl/" + s + ".fs"),
                    add("shaders/effects/" + s + ".xml"));
            startup.addAll(program);
            reloadedPerLevel.addAll(program);
        }
        MATERIALS.forEach(m -> startup.add(add("art/materials/" + m + ".xml")));
        for (String f : FONTS) {
            startup.add(add("fonts/" + f + ".fnt"));
            startup.add(add("fonts/" + f + ".png"));
        }
        for (int i = 0; i < 16; i++) {
            startup.add(add("audio/interface/ui/click_" + i + ".ogg"));
        }
    }

    private void addBiome(String biome) {
        List<String> files = new ArrayList<>();
        for (String t : TERRAINS) {
            files.add(add("art/terrains/" + biome + "/" + t + ".xml"));
            files.add(add("art/textures/terrain/types/" + biome + "/" + t + ".dds"));
        }
        terrain.put(biome, files);
    }

    private void addFaction(String f) {
        List<EntityKind> kinds = new ArrayList<>();
        UNITS.forEach(u -> kinds.add(unit(f, u)));
        STRUCTURES.forEach(st -> kinds.add(structure(f, st)));
        entities.put(f, kinds);
    }

    private EntityKind unit(String f, String u) {
        List<String> perEntity = List.of(add("simulation/templates/units/" + f + "/" + u + ".xml"),
                add("art/actors/units/" + f + "/" + u + ".xml"), material(f + u),
                add("art/meshes/skeletal/" + f + "/" + u + ".pmd"),
                add("art/textures/skins/skeletal/" + f + "/" + u + ".dds"));
        List<String> once = List.of(add("art/textures/ui/session/portraits/units/" + f + "_" + u + ".png"),
                add("audio/actor/" + f + "/" + u + "_select.ogg"));
        return new EntityKind(perEntity, once);
    }

    private EntityKind structure(String f, String st) {
        List<String> perEntity = List.of(add("simulation/templates/structures/" + f + "/" + st + ".xml"),
                add("art/actors/structures/" + f + "/" + st + ".xml"), material(f + st),
                add("art/meshes/structural/" + f + "_" + st + ".pmd"),
                add("art/textures/skins/structural/" + f + "_" + st + ".dds"));
        return new EntityKind(perEntity, List.of(add("art/textures/ui/session/portraits/structures/" + f + "_" + st
                + ".png")));
    }

    /** Eight levels: every faction plays at least once, biomes and factions recur. */
    private void addLevels() {
        String[] maps = {"acropolis_bay", "gallic_fields", "saharan_oases", "tropical_island", "alpine_valleys",
                "savanna_river", "mediterranean_cove", "persian_highlands"};
        String[][] sides = {{"athen", "pers"}, {"gaul", "brit"}, {"cart", "rome"}, {"maur", "kush"},
                {"iber", "mace"}, {"ptol", "spart"}, {"rome", "athen"}, {"pers", "mace"}};
        List<String> music = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            music.add(add("audio/music/theme_" + i + ".ogg", between(192 << 10, 512 << 10)));
        }
        for (int i = 0; i < maps.length; i++) {
            levels.add(new Level(add("maps/scenarios/" + maps[i] + ".xml"),
                    add("maps/scenarios/" + maps[i] + ".pmp", between(96 << 10, 320 << 10)),
                    BIOMES.get(i % BIOMES.size()), List.of(sides[i]), music.get(i % music.size())));
        }
    }

    /** Session icons, loaded at start-up, up to {@code distinctFiles} files in all. */
    private void fillWithIcons(int distinctFiles) {
        int missing = distinctFiles - assets.size();
        if (missing < 0) {
            throw new IllegalStateException("the game catalog has " + assets.size() + " files, more than "
                    + distinctFiles);
        }
        for (int i = 0; i < missing; i++) {
            String kind = ICON_KINDS.get(i % ICON_KINDS.size());
            int n = i / ICON_KINDS.size();
            startup.add(add("art/textures/ui/session/icons/" + kind + "/" + kind + "_" + n + ".png"));
        }
    }

    private String material(String entity) {
        return "art/materials/" + MATERIALS.get(Math.floorMod(entity.hashCode(), MATERIALS.size())) + ".xml";
    }

    private String add(String path) {
        return add(path, regularSize());
    }

    private String add(String path, long size) {
        assets.putIfAbsent(path, new Asset(path, size, kindOf(path)));
        return path;
    }

    /** Log-normal around {@link #MEDIAN_BYTES}, cut to [{@link #MIN_BYTES}, {@link #MAX_BYTES}]. */
    private long regularSize() {
        double size = MEDIAN_BYTES * Math.exp(SIGMA * random.nextGaussian());
        return Math.clamp(Math.round(size), MIN_BYTES, MAX_BYTES);
    }

    private long between(long low, long high) {
        return random.nextLong(low, high + 1);
    }

    private static PseudoContent.Kind kindOf(String path) {
        String ext = path.substring(path.lastIndexOf('.') + 1);
        return switch (ext) {
            case "png", "ogg" -> PseudoContent.Kind.RANDOM;
            case "dds", "pmd", "pmp" -> PseudoContent.Kind.MIXED;
            default -> PseudoContent.Kind.TEXT;
        };
    }
}
