package org.hpio.internal.sys;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every io_uring struct hpio uses, field by field, against the machine's {@code <linux/io_uring.h>}: the C
 * compiler says each size and offset, and the Java layouts must agree. (Skipped with a printed reason where
 * there is no C compiler or header; these machines have both.)
 */
class UringLayoutTest {
    private static final Map<String, StructLayout> STRUCTS = new LinkedHashMap<>();

    static {
        STRUCTS.put("struct io_uring_params", UringLayout.PARAMS);
        STRUCTS.put("struct io_sqring_offsets", UringLayout.SQRING_OFFSETS);
        STRUCTS.put("struct io_cqring_offsets", UringLayout.CQRING_OFFSETS);
        STRUCTS.put("struct io_uring_sqe", UringLayout.SQE);
        STRUCTS.put("struct io_uring_cqe", UringLayout.CQE);
        STRUCTS.put("struct io_uring_probe", UringLayout.PROBE);
        STRUCTS.put("struct io_uring_probe_op", UringLayout.PROBE_OP);
        STRUCTS.put("struct io_uring_getevents_arg", UringLayout.GETEVENTS_ARG);
        STRUCTS.put("struct __kernel_timespec", UringLayout.KERNEL_TIMESPEC);
    }

    @Test
    void sizesAndOffsetsMatchTheKernelHeader() {
        List<String> expressions = new ArrayList<>();
        Map<String, Long> expected = new LinkedHashMap<>();
        for (var entry : STRUCTS.entrySet()) {
            String type = entry.getKey();
            StructLayout layout = entry.getValue();
            expressions.add(CStructOffsets.sizeof(type));
            expected.put(CStructOffsets.sizeof(type), layout.byteSize());
            for (MemoryLayout member : layout.memberLayouts()) {
                String name = member.name().orElseThrow();
                if (name.startsWith("__pad") || name.startsWith("resv")) {
                    continue;   // padding the header names differently
                }
                String expr = CStructOffsets.offsetof(type, name);
                expressions.add(expr);
                expected.put(expr, layout.byteOffset(MemoryLayout.PathElement.groupElement(name)));
            }
        }
        Map<String, Long> actual = CStructOffsets.evaluate(List.of("linux/io_uring.h"), expressions);
        assertEquals(expected, actual);
    }

    @Test
    void constantsMatchTheKernelHeader() {
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("IORING_OP_NOP", (long) UringLayout.IORING_OP_NOP);
        expected.put("IORING_OP_FSYNC", (long) UringLayout.IORING_OP_FSYNC);
        expected.put("IORING_OP_ASYNC_CANCEL", (long) UringLayout.IORING_OP_ASYNC_CANCEL);
        expected.put("IORING_OP_READ", (long) UringLayout.IORING_OP_READ);
        expected.put("IORING_OP_WRITE", (long) UringLayout.IORING_OP_WRITE);
        expected.put("IOSQE_IO_LINK", (long) UringLayout.IOSQE_IO_LINK);
        expected.put("IORING_FSYNC_DATASYNC", (long) UringLayout.IORING_FSYNC_DATASYNC);
        expected.put("IORING_SETUP_CQSIZE", (long) UringLayout.IORING_SETUP_CQSIZE);
        expected.put("IORING_SETUP_CLAMP", (long) UringLayout.IORING_SETUP_CLAMP);
        expected.put("IORING_SETUP_COOP_TASKRUN", (long) UringLayout.IORING_SETUP_COOP_TASKRUN);
        expected.put("IORING_SETUP_SINGLE_ISSUER", (long) UringLayout.IORING_SETUP_SINGLE_ISSUER);
        expected.put("IORING_SETUP_DEFER_TASKRUN", (long) UringLayout.IORING_SETUP_DEFER_TASKRUN);
        expected.put("IORING_FEAT_SINGLE_MMAP", (long) UringLayout.IORING_FEAT_SINGLE_MMAP);
        expected.put("IORING_FEAT_NODROP", (long) UringLayout.IORING_FEAT_NODROP);
        expected.put("IORING_ENTER_GETEVENTS", (long) UringLayout.IORING_ENTER_GETEVENTS);
        expected.put("IORING_ENTER_EXT_ARG", (long) UringLayout.IORING_ENTER_EXT_ARG);
        expected.put("IORING_FEAT_EXT_ARG", (long) UringLayout.IORING_FEAT_EXT_ARG);
        expected.put("IORING_SQ_NEED_WAKEUP", (long) UringLayout.IORING_SQ_NEED_WAKEUP);
        expected.put("IORING_REGISTER_PROBE", (long) UringLayout.IORING_REGISTER_PROBE);
        expected.put("IORING_REGISTER_BUFFERS", (long) UringLayout.IORING_REGISTER_BUFFERS);
        expected.put("IORING_REGISTER_FILES", (long) UringLayout.IORING_REGISTER_FILES);
        expected.put("IORING_OP_READ_FIXED", (long) UringLayout.IORING_OP_READ_FIXED);
        expected.put("IORING_OP_WRITE_FIXED", (long) UringLayout.IORING_OP_WRITE_FIXED);
        expected.put("IOSQE_FIXED_FILE", (long) UringLayout.IOSQE_FIXED_FILE);
        expected.put("IO_URING_OP_SUPPORTED", (long) UringLayout.IO_URING_OP_SUPPORTED);
        expected.put("IORING_OFF_SQ_RING", UringLayout.IORING_OFF_SQ_RING);
        expected.put("IORING_OFF_CQ_RING", UringLayout.IORING_OFF_CQ_RING);
        expected.put("IORING_OFF_SQES", UringLayout.IORING_OFF_SQES);
        expected.put("__NR_io_uring_setup", UringLayout.SYS_IO_URING_SETUP);
        expected.put("__NR_io_uring_enter", UringLayout.SYS_IO_URING_ENTER);
        expected.put("__NR_io_uring_register", UringLayout.SYS_IO_URING_REGISTER);
        Map<String, Long> actual = CStructOffsets.evaluate(List.of("linux/io_uring.h", "sys/syscall.h"),
                List.copyOf(expected.keySet()));
        assertEquals(expected, actual);
    }
}
