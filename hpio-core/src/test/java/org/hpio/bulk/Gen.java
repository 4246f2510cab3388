package org.hpio.bulk;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

import java.lang.reflect.Array;
import java.nio.ByteOrder;
import java.util.List;

/** jqwik generators for arrays of every primitive type, slices of them, stream chunkings and byte orders. */
final class Gen {
    private Gen() {
    }

    /** Floats of every kind: ordinary, special, any bit pattern, and NaNs with random payloads and sign. */
    static Arbitrary<Float> floats() {
        Arbitrary<Float> nanPayloads = Arbitraries.integers().between(1, 0x7fffff)
                .flatMap(m -> Arbitraries.of(0, 0x80000000).map(sign -> Float.intBitsToFloat(sign | 0x7f800000 | m)));
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.floats()),
                Tuple.of(2, Arbitraries.integers().map(Float::intBitsToFloat)),
                Tuple.of(2, nanPayloads),
                Tuple.of(1, Arbitraries.of(Float.NaN, 0f, -0f, Float.POSITIVE_INFINITY,
                        Float.NEGATIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE, Float.MIN_NORMAL)));
    }

    static Arbitrary<Double> doubles() {
        Arbitrary<Double> nanPayloads = Arbitraries.longs().between(1, 0xfffffffffffffL)
                .flatMap(m -> Arbitraries.of(0L, Long.MIN_VALUE)
                        .map(sign -> Double.longBitsToDouble(sign | 0x7ff0000000000000L | m)));
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.doubles()),
                Tuple.of(2, Arbitraries.longs().map(Double::longBitsToDouble)),
                Tuple.of(2, nanPayloads),
                Tuple.of(1, Arbitraries.of(Double.NaN, 0d, -0d, Double.POSITIVE_INFINITY,
                        Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, Double.MIN_NORMAL)));
    }

    static Arbitrary<?> elements(Prim p) {
        return switch (p) {
            case BOOLEAN -> Arbitraries.of(true, false);
            case BYTE -> Arbitraries.bytes();
            case CHAR -> Arbitraries.integers().between(0, 0xffff).map(i -> (char) (int) i);
            case SHORT -> Arbitraries.shorts();
            case INT -> Arbitraries.integers();
            case LONG -> Arbitraries.longs();
            case FLOAT -> floats();
            case DOUBLE -> doubles();
        };
    }

    static Arbitrary<Object> arrays(Prim p, int maxSize) {
        return elements(p).list().ofMaxSize(maxSize).map(list -> toArray(p, list));
    }

    private static Object toArray(Prim p, List<?> list) {
        Object a = p.newArray(list.size());
        for (int i = 0; i < list.size(); i++) {
            Object v = list.get(i);
            // Floats and doubles go in by their raw bits so that no NaN payload can be lost on the way.
            if (p == Prim.FLOAT) {
                ((float[]) a)[i] = Float.intBitsToFloat(Float.floatToRawIntBits((Float) v));
            } else if (p == Prim.DOUBLE) {
                ((double[]) a)[i] = Double.longBitsToDouble(Double.doubleToRawLongBits((Double) v));
            } else {
                Array.set(a, i, v);
            }
        }
        return a;
    }

    /** An array of up to {@code maxSize} elements with a random valid (offset, count) inside it. */
    static Arbitrary<Slice> slices(Prim p, int maxSize) {
        return arrays(p, maxSize).flatMap(a -> {
            int n = Array.getLength(a);
            return Arbitraries.integers().between(0, n).flatMap(offset ->
                    Arbitraries.integers().between(0, n - offset).map(count -> new Slice(p, a, offset, count)));
        });
    }

    /** Stream chunkings: one byte per call, a few bytes, or larger pieces. */
    static Arbitrary<Chunking> chunkings() {
        Arbitrary<Integer> max = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just(1)),
                Tuple.of(4, Arbitraries.integers().between(1, 16)),
                Tuple.of(2, Arbitraries.integers().between(17, 4096)));
        return Combinators.combine(Arbitraries.longs(), max).as(Chunking::new);
    }

    static Arbitrary<ByteOrder> orders() {
        return Arbitraries.of(ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN);
    }
}
