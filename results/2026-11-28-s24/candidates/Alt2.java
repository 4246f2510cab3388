import java.lang.reflect.*;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.nio.file.spi.FileSystemProvider;
import java.util.*;
import java.util.concurrent.atomic.LongAdder;
import com.sun.nio.file.ExtendedOpenOption;
import org.hpio.internal.io.*;
import org.hpio.nio.HpioChannels;
import org.hpio.nio.HpioOpenOption;

/**
 * Alt2 FILE THREADS PHASE_MS CYCLES MODES...: one JVM, N virtual threads; each phase every read goes to one mode's
 * channel. Modes: jdk; hpio (the shared rings); m<K>x<R> (R io_uring rings of maxInFlight K, a provider of its own).
 */
public class Alt2 {
    static volatile int mode;

    static FileChannel hpioOn(Path p, List<IoEngine> rings) throws Exception {
        Class<?> src = Class.forName("org.hpio.nio.HpioFileSystemProvider$EngineSource");
        Object source = Proxy.newProxyInstance(src.getClassLoader(), new Class<?>[] {src}, (proxy, m, args) -> switch (m.getName()) {
            case "engine" -> rings.get(0);
            case "rings" -> rings;
            case "ringsStarted" -> true;
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            case "toString" -> "source";
            default -> throw new UnsupportedOperationException(m.getName());
        });
        Class<?> prov = Class.forName("org.hpio.nio.HpioFileSystemProvider");
        Constructor<?> c = prov.getDeclaredConstructor(FileSystemProvider.class, src);
        c.setAccessible(true);
        FileSystemProvider provider = (FileSystemProvider) c.newInstance(FileSystems.getDefault().provider(), source);
        return provider.newFileChannel(p, Set.of(StandardOpenOption.READ, HpioOpenOption.DIRECT));
    }

    static Set<String> completionTids() throws Exception {
        Set<String> tids = new TreeSet<>();
        try (var ds = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : ds) {
                if (Files.readString(t.resolve("comm")).startsWith("hpio-uring-com")) tids.add(t.getFileName().toString());
            }
        }
        return tids;
    }

    public static void main(String[] a) throws Exception {
        Path p = Path.of(a[0]); int n = Integer.parseInt(a[1]); long phaseMs = Long.parseLong(a[2]); int cycles = Integer.parseInt(a[3]);
        String[] modes = Arrays.copyOfRange(a, 4, a.length);
        long size = Files.size(p);
        FileChannel[] chans = new FileChannel[modes.length];
        for (int i = 0; i < modes.length; i++) {
            String m = modes[i];
            String label = m;
            if (m.equals("jdk")) chans[i] = FileChannel.open(p, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
            else if (m.equals("hpio")) chans[i] = HpioChannels.open(p, StandardOpenOption.READ, HpioOpenOption.DIRECT);
            else if (m.startsWith("m") || m.startsWith("p")) {
                String spec = m;
                String[] parts = m.split(":");
                spec = parts[0];
                System.clearProperty("hpio.uring.deferAbove");
                System.clearProperty("hpio.uring.batchWaitMicros");
                for (int q = 1; q < parts.length; q++) {
                    if (parts[q].startsWith("d")) System.setProperty("hpio.uring.deferAbove", parts[q].substring(1));
                    if (parts[q].startsWith("b")) System.setProperty("hpio.uring.batchWaitMicros", parts[q].substring(1));
                }
                m = spec;
                String pin = null;
                if (m.startsWith("p")) { pin = m.substring(1, m.indexOf('m')); spec = m.substring(m.indexOf('m')); }
                int k = Integer.parseInt(spec.substring(1, spec.indexOf('x')));
                int r = Integer.parseInt(spec.substring(spec.indexOf('x') + 1));
                Set<String> before = completionTids();
                List<IoEngine> rings = new ArrayList<>();
                for (int j = 0; j < r; j++) rings.add(IoEngines.openUring(EngineConfig.defaults().withMaxInFlight(k)));
                chans[i] = hpioOn(p, rings);
                if (pin != null) {
                    Set<String> added = completionTids();
                    added.removeAll(before);
                    String[] cpus = pin.split("_");
                    int j = 0;
                    for (String tid : added) {
                        new ProcessBuilder("taskset", "-p", "-c", cpus[j++ % cpus.length], tid).inheritIO().start().waitFor();
                    }
                }
            } else throw new IllegalArgumentException(m);
        }
        LongAdder done = new LongAdder();
        for (int i = 0; i < n; i++) {
            long seed = i;
            Thread.ofVirtual().start(() -> {
                ByteBuffer b = ByteBuffer.allocateDirect(8192).alignedSlice(4096).limit(4096);
                SplittableRandom r = new SplittableRandom(seed);
                try {
                    while (true) {
                        b.clear();
                        chans[mode].read(b, r.nextLong(size / 4096) * 4096);
                        done.increment();
                    }
                } catch (Exception e) {
                    e.printStackTrace();
                }
            });
        }
        double[][] rates = new double[modes.length][cycles];
        Thread.sleep(1500);
        for (int c = 0; c < cycles; c++) {
            for (int m0 = 0; m0 < modes.length; m0++) {
                int m = (c % 2 == 0) ? m0 : modes.length - 1 - m0;
                mode = m;
                Thread.sleep(250);
                long s0 = done.sum(); long t0 = System.nanoTime();
                Thread.sleep(phaseMs);
                rates[m][c] = (done.sum() - s0) / ((System.nanoTime() - t0) / 1e9);
            }
        }
        for (int m = 0; m < modes.length; m++) {
            double[] r = rates[m].clone(); Arrays.sort(r);
            System.out.printf("%-8s mean %.0f median %.0f%n", modes[m], Arrays.stream(r).average().orElse(0), r[r.length / 2]);
        }
        for (int m = 1; m < modes.length; m++) {
            double[] ratio = new double[cycles];
            for (int c = 0; c < cycles; c++) ratio[c] = rates[m][c] / rates[0][c];
            Arrays.sort(ratio);
            System.out.printf("%s/%s per-cycle ratio median %.3f mean %.3f (p25 %.3f p75 %.3f)%n", modes[m], modes[0], ratio[cycles / 2],
                    Arrays.stream(ratio).average().orElse(0), ratio[cycles / 4], ratio[3 * cycles / 4]);
        }
        System.exit(0);
    }
}
