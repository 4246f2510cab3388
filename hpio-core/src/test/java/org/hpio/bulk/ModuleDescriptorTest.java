package org.hpio.bulk;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The module org.hpio.core exports org.hpio (what runs here: {@code Hpio}), org.hpio.bulk, org.hpio.async and
 * org.hpio.nio to everyone and nothing else (engines and native memory stay
 * internal); internal packages may be exported only to sibling hpio modules (DESIGN.md: qualified exports).
 * Surefire runs these tests on the class path, so the descriptor is read from the compiled module-info.
 */
class ModuleDescriptorTest {
    @Test
    void exportsOnlyTheStatusBulkAsyncAndNioPackages() throws IOException {
        Path classes = Path.of(BulkDataInput.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        Path moduleInfo = classes.resolve("module-info.class");
        assertTrue(Files.exists(moduleInfo), "compiled module-info at " + moduleInfo);
        try (InputStream in = Files.newInputStream(moduleInfo)) {
            ModuleDescriptor d = ModuleDescriptor.read(in);
            assertEquals("org.hpio.core", d.name());
            Set<String> exports = d.exports().stream().filter(e -> !e.isQualified())
                    .map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
            assertEquals(Set.of("org.hpio", "org.hpio.bulk", "org.hpio.async", "org.hpio.nio"), exports);
            for (ModuleDescriptor.Exports e : d.exports()) {
                if (e.isQualified()) {
                    assertTrue(e.source().startsWith("org.hpio.internal.") && e.targets().equals(Set.of("org.hpio.archive")),
                            "only internal packages, and only to sibling modules: " + e);
                }
            }
            assertTrue(d.opens().isEmpty(), "nothing is opened for reflection");
        }
    }
}
