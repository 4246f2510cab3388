package org.hpio.internal.array;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NestedArrays: rows depth-first in storage order, their byte size, and the checks made before any I/O. */
class NestedArraysTest {
    @Test
    void rowsOfARaggedMatrixInOrder() {
        double[][] m = {{1, 2, 3}, {}, {4}};
        List<Object> rows = NestedArrays.rows(m);
        assertEquals(3, rows.size());
        for (int i = 0; i < 3; i++) {
            assertSame(m[i], rows.get(i), "row " + i + " is the caller's array, not a copy");
        }
        assertEquals(8 * 4, NestedArrays.byteSize(rows));
    }

    @Test
    void rowsOfAThreeDimensionalArrayDepthFirst() {
        int[][][] c = {{{1}, {2, 3}}, {}, {{4, 5, 6}}};
        List<Object> rows = NestedArrays.rows(c);
        assertEquals(List.of(c[0][0], c[0][1], c[2][0]), rows);
        assertSame(c[0][1], rows.get(1));
        assertEquals(4 * 6, NestedArrays.byteSize(rows));
    }

    @Test
    void emptyOuterArraysHaveNoRows() {
        assertTrue(NestedArrays.rows(new long[0][]).isEmpty());
        assertTrue(NestedArrays.rows(new char[0][][]).isEmpty());
        assertEquals(0, NestedArrays.byteSize(NestedArrays.rows(new short[][]{{}, {}})));
    }

    @Test
    void booleanRowsAreOneBytePerElement() {
        assertEquals(5, NestedArrays.byteSize(NestedArrays.rows(new boolean[][]{{true, false}, {true, true, false}})));
    }

    @Test
    void nullRowsAreNamedInTheException() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> NestedArrays.rows(new int[][][]{{{1}}, {null}}));
        assertTrue(e.getMessage().contains("[1][0]"), e.getMessage());
        NullPointerException e2 = assertThrows(NullPointerException.class,
                () -> NestedArrays.rows(new double[][]{{1}, {2}, null}));
        assertTrue(e2.getMessage().contains("[2]"), e2.getMessage());
        assertThrows(NullPointerException.class, () -> NestedArrays.rows(null));
    }

    @Test
    void nonPrimitiveElementTypesAreRejected() {
        for (Object[] bad : new Object[][]{{"a"}, new String[]{"a"}, new Integer[][]{{1}}, new Object[]{new int[1]},
                new Object[0]}) {
            assertThrows(IllegalArgumentException.class, () -> NestedArrays.rows(bad), bad.getClass().getTypeName());
        }
    }

    @Test
    void anArrayCannotContainItself() {
        // The static type must bottom out in a primitive, so a self-containing Object[] is rejected, not walked.
        Object[] self = new Object[1];
        self[0] = self;
        assertThrows(IllegalArgumentException.class, () -> NestedArrays.rows(self));
    }
}
