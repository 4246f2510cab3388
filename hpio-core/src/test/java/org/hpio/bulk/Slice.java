package org.hpio.bulk;

import java.lang.reflect.Array;

/** {@code count} elements of {@code array} from {@code offset}: the (array, offset, count) form of the API. */
record Slice(Prim prim, Object array, int offset, int count) {
    int length() {
        return Array.getLength(array);
    }

    int end() {
        return offset + count;
    }

    long bytes() {
        return (long) count * prim.size;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(prim + "[" + length() + "] offset=" + offset + " count=" + count + " {");
        for (int i = 0; i < Math.min(length(), 40); i++) {
            s.append(i == 0 ? "" : ", ").append(prim.rawBits(array, i) == 0 ? "0" : Array.get(array, i));
            if (prim == Prim.FLOAT || prim == Prim.DOUBLE) {
                s.append("/0x").append(Long.toHexString(prim.rawBits(array, i)));
            }
        }
        return s.append(length() > 40 ? ", ...}" : "}").toString();
    }
}
