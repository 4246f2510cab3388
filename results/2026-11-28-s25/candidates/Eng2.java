import org.hpio.internal.io.*;
import java.nio.file.*;
public class Eng2 {
    public static void main(String[] a) throws Exception {
        FileSystems.getDefault();
        String mode = a[0];
        if (mode.contains("cls")) {
            for (String c : new String[] {"org.hpio.internal.sys.UringCalls", "org.hpio.internal.sys.UringRing", "org.hpio.internal.sys.UringLayout",
                    "org.hpio.internal.io.UringEngine", "org.hpio.internal.io.EngineBase", "org.hpio.internal.io.IoRequest", "org.hpio.internal.io.IoRequests",
                    "org.hpio.internal.io.IoEngines", "org.hpio.internal.io.EngineConfig", "org.hpio.internal.io.AdmissionGate", "org.hpio.internal.io.IoOperation",
                    "org.hpio.internal.io.StagingBudget", "org.hpio.internal.io.LiveJobs", "org.hpio.internal.io.Completions"}) {
                Class.forName(c, true, Eng2.class.getClassLoader());
            }
        }
        if (mode.contains("engine")) {
            IoEngine e = IoEngines.open(EngineConfig.defaults()); e.close();
        }
        Thread.sleep(500);
        long t0 = System.nanoTime();
        IoEngine e = IoEngines.shared();
        long t1 = System.nanoTime();
        System.out.printf("%s %s first %.1f ms%n", mode, e.name(), (t1-t0)/1e6);
    }
}
