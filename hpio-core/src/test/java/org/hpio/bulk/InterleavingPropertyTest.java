package org.hpio.bulk;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Spec 3 as a property: any sequence of single-value calls (the inherited writeX/readX) and array calls of
 * any type, mixed, gives DataOutputStream's bytes (size() and the file pointer counting every byte) and reads
 * back the same sequence, on the streams (chunked) and on BulkRandomAccessFile.
 */
class InterleavingPropertyTest {
    private static Path dir;

    @BeforeContainer
    static void makeDirectory() throws IOException {
        dir = Files.createTempDirectory("hpio-mix-props");
    }

    @AfterContainer
    static void removeDirectory() throws IOException {
        TestFiles.deleteTree(dir);
    }

    /** One call: either an array call on a slice, or the slice's elements one writeX/readX at a time. */
    record Op(Slice slice, boolean single) {
        Prim prim() {
            return slice.prim();
        }

        void write(BulkDataOutput out) throws IOException {
            if (single) {
                for (int i = slice.offset(); i < slice.end(); i++) {
                    prim().jdkWrite(out, slice.array(), i);
                }
            } else {
                prim().write(out, slice.array(), slice.offset(), slice.count());
            }
        }

        /** Reads this op back into a fresh array and checks it. */
        void readAndCheck(BulkDataInput in, int index) throws IOException {
            Object back = prim().newArray(slice.length());
            if (single) {
                for (int i = slice.offset(); i < slice.end(); i++) {
                    prim().jdkRead(in, back, i);
                }
            } else {
                prim().read(in, back, slice.offset(), slice.count());
            }
            Prim.assertBits(prim().canonical(slice.array()), slice.offset(), prim().canonical(back), slice.offset(),
                    slice.count(), "op " + index + " " + this);
        }

        @Override
        public String toString() {
            return (single ? "single " : "array ") + slice;
        }
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> op = Arbitraries.of(Prim.values())
                .flatMap(p -> Gen.slices(p, 40))
                .flatMap(s -> Arbitraries.of(true, false).map(single -> new Op(s, single)));
        return op.list().ofMaxSize(12);
    }

    @Provide
    Arbitrary<Chunking> chunkings() {
        return Gen.chunkings();
    }

    private static byte[] jdkBytes(List<Op> ops) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        for (Op op : ops) {
            for (int i = op.slice().offset(); i < op.slice().end(); i++) {
                op.prim().jdkWrite(out, op.slice().array(), i);
            }
        }
        return bytes.toByteArray();
    }

    @Property(tries = 150)
    void mixedCallsOnStreams(@ForAll("ops") List<Op> ops, @ForAll("chunkings") Chunking c) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BulkDataOutputStream out = new BulkDataOutputStream(c.out(sink));
        long expectedSize = 0;
        for (Op op : ops) {
            op.write(out);
            expectedSize += op.slice().bytes();
            assertEquals(expectedSize, out.size(), "size() after " + op);
        }
        byte[] written = sink.toByteArray();
        byte[] jdk = jdkBytes(ops);
        assertEquals(jdk.length, written.length);
        // Equal to DataOutputStream's bytes, but for the NaN payloads that hpio keeps: compare per op.
        int at = 0;
        for (Op op : ops) {
            int n = (int) op.slice().bytes();
            byte[] part = Arrays.copyOfRange(written, at, at + n);
            if (op.single()) {
                assertArrayEquals(op.prim().jdkBytes(op.slice().array(), op.slice().offset(), op.slice().count()), part);
            } else {
                StreamRoundTripPropertyTest.assertDataOutputStreamBytes(op.slice(), part);
            }
            at += n;
        }

        BulkDataInputStream in = new BulkDataInputStream(c.in(new ByteArrayInputStream(written)));
        for (int i = 0; i < ops.size(); i++) {
            ops.get(i).readAndCheck(in, i);
        }
        assertEquals(-1, in.read(), "everything was read");
    }

    @Property(tries = 100)
    void mixedCallsOnRandomAccessFile(@ForAll("ops") List<Op> ops) throws IOException {
        Path file = Files.createTempFile(dir, "mix", ".bin");
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw")) {
            long pointer = 0;
            for (Op op : ops) {
                op.write(f);
                pointer += op.slice().bytes();
                assertEquals(pointer, f.getFilePointer(), "file pointer after " + op);
                assertEquals(pointer, f.length(), "length after " + op);
            }
            f.seek(0);
            pointer = 0;
            for (int i = 0; i < ops.size(); i++) {
                ops.get(i).readAndCheck(f, i);
                pointer += ops.get(i).slice().bytes();
                assertEquals(pointer, f.getFilePointer(), "file pointer after reading op " + i);
            }
            assertEquals(-1, f.read());
        } finally {
            Files.delete(file);
        }
    }
}
