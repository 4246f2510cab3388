package org.hpio.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachineInfoTest {
    @TempDir
    Path dir;

    @Test
    void probesThisLinuxMachine() {
        assumeTrue(Files.isReadable(Path.of("/proc/meminfo")), "Linux /proc");
        MachineInfo m = MachineInfo.probe(dir);
        assertTrue(m.logicalCores() >= 1);
        assertTrue(m.memoryBytes() > 0, "MemTotal read");
        for (String field : new String[] {m.cpuModel(), m.kernel(), m.workDir(), m.fileSystemType(),
                m.fileSystemDevice(), m.mountPoint(), m.javaVendor(), m.javaVersion(), m.javaVm(), m.os()}) {
            assertNotNull(field);
            assertFalse(field.isBlank());
        }
        assertNotEquals(MachineInfo.UNKNOWN, m.kernel());
        assertNotEquals(MachineInfo.UNKNOWN, m.fileSystemType());
        assertNotEquals(MachineInfo.UNKNOWN, m.mountPoint());
        assertTrue(dir.toAbsolutePath().startsWith(m.mountPoint()), m.mountPoint());
        assertEquals(dir.toAbsolutePath().normalize().toString(), m.workDir());
        assertTrue(m.os().startsWith("Linux"), m.os());
    }

    @Test
    void missingDirectoryUsesItsNearestParent() {
        MachineInfo m = MachineInfo.probe(dir.resolve("not/yet/created"));
        assertEquals(MachineInfo.probe(dir).fileSystemType(), m.fileSystemType());
    }

    @Test
    void neverThrows() {
        assertNotNull(MachineInfo.probe(null));
        assertNotNull(MachineInfo.probe(Path.of("relative/dir")));
    }

    @Test
    void mapHasEveryField() {
        MachineInfo m = MachineInfo.probe(dir);
        Map<String, Object> map = m.asMap();
        assertEquals(12, map.size());
        assertEquals(m.logicalCores(), map.get("logical-cores"));
        assertEquals(m.cpuModel(), map.get("cpu"));
        MachineInfo unknownMemory = new MachineInfo("c", 1, -1, "k", "w", "t", "d", "m", "v", "j", "vm", "os");
        assertEquals(MachineInfo.UNKNOWN, unknownMemory.asMap().get("memory-bytes"));
    }

    @Test
    void everySuiteAndEveryQuotedTableNamesTheCpuModel() throws Exception {
        String cpu = MachineInfo.probe(dir).cpuModel();
        assertEquals(cpu, MachineInfo.cpuModelHere());
        SuiteReport report = new SuiteReport("archive", "a suite");
        new BenchContext(new BenchOptions(Optional.empty(), List.of(1), 1, BenchOptions.CacheMode.WARM, dir,
                List.of()), report);
        assertEquals(cpu, report.params().get("cpu"));
        assertTrue(report.quotedTable("Targets, same run", List.of("ratio")).title().endsWith("(CPU: " + cpu + ")"));
    }
}
