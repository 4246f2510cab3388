package org.hpio.internal.sys;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import java.util.List;
import java.util.Map;

import static org.hpio.internal.sys.CStructOffsets.offsetof;
import static org.hpio.internal.sys.CStructOffsets.sizeof;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CStructOffsets: values in order, a missing header skips, a typo fails. */
class CStructOffsetsTest {
    @Test
    void evaluatesSizesOffsetsAndConstantsInOrder() {
        Map<String, Long> c = CStructOffsets.evaluate(List.of("linux/io_uring.h"), List.of(
                sizeof("struct io_uring_sqe"), offsetof("struct io_uring_sqe", "user_data"), "IORING_OP_NOP", "-1"));
        assertEquals(List.of(sizeof("struct io_uring_sqe"), offsetof("struct io_uring_sqe", "user_data"),
                "IORING_OP_NOP", "-1"), List.copyOf(c.keySet()));
        assertEquals(List.of(64L, 32L, 0L, -1L), List.copyOf(c.values()));
    }

    @Test
    void aMissingHeaderSkips() {
        assertThrows(TestAbortedException.class,
                () -> CStructOffsets.evaluate(List.of("linux/no_such_header.h"), List.of("1")));
    }

    @Test
    void aBadExpressionFails() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CStructOffsets.evaluate(List.of("<linux/stat.h>"), List.of(offsetof("struct statx", "no_field"))));
        assertTrue(e.getMessage().contains("no_field"), e.getMessage());
    }
}
