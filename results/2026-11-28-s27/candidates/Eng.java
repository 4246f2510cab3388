import java.nio.file.Path;
import org.hpio.bench.engine.EngineBaseline;
public class Eng {
    public static void main(String[] a) throws Exception {
        Path p = Path.of(a[0]);
        if (a[1].equals("create")) { EngineBaseline.createPatternFile(p, 256L << 20, org.hpio.bench.report.Progress.start("pattern", 256)); return; }
        var f = EngineBaseline.uringRandomReads(p, 256L << 20, Integer.parseInt(a[1]), Double.parseDouble(a[2]), 1.0);
        System.out.printf("iops %.0f cpu %.2f%n", f.iops(), f.cpuMicrosPerIo());
    }
}
