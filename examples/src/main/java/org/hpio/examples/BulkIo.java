package org.hpio.examples;

import org.hpio.bulk.BulkDataOutputStream;
import org.hpio.bulk.BulkRandomAccessFile;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

/** The README's bulk typed-array I/O (org.hpio.bulk): whole arrays in one call, streams and positional. */
public final class BulkIo {
    private BulkIo() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Scratch.directory("bulk");
        String fileName = dir.resolve("data.bin").toString();
        Path path = dir.resolve("shared.bin");
        double[] written = {1.5, -2.25, Double.NaN, 1e300};
        int block = 4;
        int myRank = 1;
        int[] myInts = {10, 20, 30, 40};
        long gridOffset = 64;
        double[][] grid = {{1, 2, 3}, {4, 5, 6}};
        double[][] copy = new double[2][3];
        double[] values = written;
        // README: bulk
        // Write a header with the inherited DataOutput method, then a whole double[] in one call.
        try (var out = new BulkDataOutputStream(new BufferedOutputStream(new FileOutputStream(fileName)))) {
            out.writeInt(values.length);
            out.writeArray(values);                        // the bytes DataOutputStream.writeDouble would write
        }
        // Read it back: any primitive array, whole or (array, offset, count), at the file pointer...
        try (var in = new BulkRandomAccessFile(fileName, "r")) {
            values = new double[in.readInt()];
            in.readArray(values);
        }
        // ...or at a position, from many threads at once (each owning a block of one shared file).
        try (var file = new BulkRandomAccessFile(path, "rw", ByteOrder.nativeOrder())) {   // native order: no swap
            file.writeArray(4L * block * myRank, myInts);  // positional: the file pointer stays where it is
            file.writeArray(gridOffset, grid);             // arrays of arrays: rows back to back, any depth
            file.readArray(gridOffset, copy);
        }
        // README: end
        Check.that(Arrays.equals(written, values), "the doubles read back, NaN included: " + Arrays.toString(values));
        Check.that(Arrays.deepEquals(grid, copy), "the grid read back: " + Arrays.deepToString(copy));
        checkPositional(path, 4L * block * myRank, myInts);
        System.out.println("BulkIo: " + values.length + " doubles and " + myInts.length + " positional ints round-tripped");
    }

    /** The ints landed at their block of the file, in native order, and the file pointer never moved. */
    private static void checkPositional(Path path, long offset, int[] ints) throws IOException {
        try (var file = new BulkRandomAccessFile(path, "r", ByteOrder.nativeOrder())) {
            int[] back = new int[ints.length];
            file.readArray(offset, back);
            Check.that(Arrays.equals(ints, back), "the positional ints read back: " + Arrays.toString(back));
            Check.that(file.getFilePointer() == 0, "positional calls leave the file pointer alone");
        }
    }
}
