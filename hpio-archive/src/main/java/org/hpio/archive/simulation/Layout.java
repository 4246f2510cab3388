package org.hpio.archive.simulation;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where each file lies in an archive: the byte range a load of it reads ({@code start} inclusive, {@code end}
 * exclusive; for a Zip entry, from its local header to the end of its data). Immutable.
 */
public final class Layout {
    /** The range a load reads. */
    public record Extent(long start, long end) {
        /** Checks {@code 0 <= start <= end}. */
        public Extent {
            if (start < 0 || end < start) {
                throw new IllegalArgumentException("bad extent [" + start + ", " + end + ")");
            }
        }
    }

    private final Map<String, Extent> extents;

    private Layout(Map<String, Extent> extents) {
        this.extents = Map.copyOf(extents);
    }

    /**
     * The layout of files packed end to end in {@code order}; each file takes one unit, so what counts is only
     * which file follows which (as in an archive where every entry has a header, so none is empty).
     */
    public static Layout packed(List<String> order) {
        Map<String, Extent> extents = HashMap.newHashMap(order.size());
        for (int i = 0; i < order.size(); i++) {
            if (extents.put(order.get(i), new Extent(i, i + 1L)) != null) {
                throw new IllegalArgumentException("file listed twice: " + order.get(i));
            }
        }
        return new Layout(extents);
    }

    /** A layout of the given extents (for example the entries of a real archive). */
    public static Layout of(Map<String, Extent> extents) {
        return new Layout(Objects.requireNonNull(extents, "extents"));
    }

    /** The range a load of {@code path} reads, or {@code null} when the file is not in the layout. */
    public Extent extent(String path) {
        return extents.get(path);
    }

    /** How many files the layout places. */
    public int size() {
        return extents.size();
    }
}
