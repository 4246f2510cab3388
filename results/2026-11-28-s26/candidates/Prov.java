import java.nio.file.*;
import java.nio.file.spi.FileSystemProvider;

public class Prov {
    public static void main(String[] a) throws Exception {
        long t0 = System.nanoTime();
        FileSystemProvider jdk = FileSystems.getDefault().provider();
        long t1 = System.nanoTime();
        Class<?> c = Class.forName("org.hpio.nio.HpioFileSystemProvider");
        long t2 = System.nanoTime();
        Object p = a.length > 0 ? c.getDeclaredConstructor(FileSystemProvider.class).newInstance(jdk)
                : new org.hpio.nio.HpioFileSystemProvider(jdk);
        long t3 = System.nanoTime();
        System.out.printf("jdk fs %.1f  load %.1f  construct %.1f ms%n", (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6);
    }
}
