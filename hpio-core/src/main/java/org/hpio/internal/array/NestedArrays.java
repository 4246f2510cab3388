package org.hpio.internal.array;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Arrays of arrays of primitives ({@code double[][]}, {@code int[][][]}, ragged or not) flattened into their
 * rows, in the order they are stored: row 0 first, each nested array depth-first. The bulk I/O of 000 §6
 * lifted to any depth: the rows go back to back, and the shape is the caller's to keep.
 */
public final class NestedArrays {
    private NestedArrays() {
    }

    /**
     * The one-dimensional rows of {@code nested}, checked before any I/O: the static type must bottom out in
     * a primitive (so an array can never contain itself), and no row may be null.
     */
    public static List<Object> rows(Object[] nested) {
        Objects.requireNonNull(nested, "array");
        Class<?> type = nested.getClass();
        while (type.isArray()) {
            type = type.getComponentType();
        }
        if (!type.isPrimitive()) {
            throw new IllegalArgumentException("not an array of arrays of a primitive type: "
                    + nested.getClass().getTypeName());
        }
        List<Object> rows = new ArrayList<>();
        collect(nested, "", rows);
        return rows;
    }

    private static void collect(Object[] nested, String path, List<Object> rows) {
        for (int i = 0; i < nested.length; i++) {
            Object row = nested[i];
            String here = path + "[" + i + "]";
            if (row == null) {
                throw new NullPointerException("row " + here + " is null");
            }
            if (row instanceof Object[] deeper) {
                collect(deeper, here, rows);
            } else {
                rows.add(row);
            }
        }
    }

    /** Total bytes of the rows. */
    public static long byteSize(List<Object> rows) {
        long bytes = 0;
        for (Object row : rows) {
            ArrayKind kind = ArrayKind.of(row);
            bytes += kind.byteSize(kind.length(row));
        }
        return bytes;
    }
}
