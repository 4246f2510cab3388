package org.hpio.bench.jmh;

import org.hpio.bulk.BulkDataInputStream;
import org.hpio.bulk.BulkDataOutputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The CPU cost of turning big-endian bytes into a long[] and back, without a file in the way: the per-element
 * DataInputStream loop (000 Table 1's {@code ds} over memory), a ByteBuffer view, and hpio's bulk streams.
 * Run with {@code ./hpio jmh DecodeBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class DecodeBenchmark {
    @Param({"1024", "131072"})
    int longs;

    byte[] bytes;
    long[] values;

    @Setup
    public void setUp() {
        values = new long[longs];
        ByteBuffer buffer = ByteBuffer.allocate(longs * 8);
        for (int i = 0; i < longs; i++) {
            buffer.putLong(i * 0x9E3779B97F4A7C15L);
        }
        bytes = buffer.array();
    }

    @Benchmark
    public long[] dataInputStreamLoop() throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        for (int i = 0; i < longs; i++) {
            values[i] = in.readLong();
        }
        return values;
    }

    @Benchmark
    public long[] byteBufferView() {
        ByteBuffer.wrap(bytes).asLongBuffer().get(values);
        return values;
    }

    @Benchmark
    public long[] bulkDataInputStream() throws IOException {
        new BulkDataInputStream(new ByteArrayInputStream(bytes)).readArray(values);
        return values;
    }

    @Benchmark
    public long[] bulkDataOutputStream() throws IOException {
        new BulkDataOutputStream(OutputStream.nullOutputStream()).writeArray(values);
        return values;
    }
}
