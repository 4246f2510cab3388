import java.lang.foreign.*;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import static java.lang.foreign.ValueLayout.*;
public class Sigbus {
    public static void main(String[] a) throws Exception {
        Path p = Path.of(a[0]);
        long size = 64L << 20;
        for (String mode : new String[]{"native", "swap", "bytes"}) {
            try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(java.nio.ByteBuffer.allocate(1), size - 1);
                long[] arr = new long[(int) (size / 8)];
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment m = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
                    ch.truncate(4096);
                    long t0 = System.nanoTime();
                    try {
                        switch (mode) {
                            case "native" -> MemorySegment.copy(m, JAVA_LONG_UNALIGNED, 0, arr, 0, arr.length);
                            case "swap" -> MemorySegment.copy(m, JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 0, arr, 0, arr.length);
                            default -> MemorySegment.copy(m, 0, MemorySegment.ofArray(arr), 0, size);
                        }
                        System.out.println(mode + ": no exception?!");
                    } catch (Throwable t) {
                        System.out.println(mode + ": " + t + " after " + (System.nanoTime() - t0) / 1000 + " us");
                    }
                }
            }
        }
    }
}
