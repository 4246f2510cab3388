/**
 * Bulk synchronous I/O of whole primitive arrays: the extensions of Bonachea, "Bulk File I/O Extensions to
 * Java" (000 §3) and Bonachea, Dickens and Thakur (001 §5), on today's JDK.
 *
 * <pre>{@code
 * try (var out = new BulkDataOutputStream(new BufferedOutputStream(new FileOutputStream("data.bin")))) {
 *     out.writeInt(values.length);          // a header, with the inherited single-value method
 *     out.writeArray(values);               // then the whole double[] in one call
 * }
 * try (var in = new BulkRandomAccessFile("data.bin", "r")) {
 *     double[] values = new double[in.readInt()];
 *     in.readArray(values);
 * }
 * }</pre>
 */
package org.hpio.bulk;
