package org.hpio.bench.archive;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArchiveTargetsTest {
    @Test
    void aPairWithATargetOnTheRecordedTraceColdIsNotHiddenByTheSamePairForComparison() {
        List<ArchiveTargets.Target> cold = ArchiveTargets.merged(ArchiveTargets.everyWorkload(),
                ArchiveTargets.recordedTraceCold());
        List<ArchiveTargets.Target> zstdVsDeflate = cold.stream()
                .filter(t -> t.a().equals(ArchivePlan.ZSTD_AHEAD) && t.b().equals(ArchivePlan.DEFLATE_AHEAD)).toList();
        assertEquals(1, zstdVsDeflate.size(), "one row per pair");
        assertEquals(1.5, zstdVsDeflate.getFirst().target(), "issue 20's target, not 'for comparison'");
        assertEquals(cold.size(), cold.stream().map(t -> t.a() + "/" + t.b()).distinct().count());
        assertTrue(cold.stream().anyMatch(t -> t.a().equals(ArchivePlan.ZSTD_AHEAD) && t.b().equals("loose-readallbytes")
                && t.target() == 4.0));
    }

    @Test
    void everyWorkloadAloneKeepsItsComparisonRows() {
        assertTrue(ArchiveTargets.everyWorkload().stream()
                .anyMatch(t -> t.a().equals(ArchivePlan.ZSTD_AHEAD) && Double.isNaN(t.target())));
    }
}
