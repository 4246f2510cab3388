package org.hpio.cli;

import org.hpio.archive.trace.Trace;
import org.hpio.archive.trace.TraceEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code hpio trace record}: strace's log parsed, and a real recording of {@code cat}. */
class TraceCommandTest {
    @TempDir
    Path dir;

    @Test
    void parsesOpensForReadingIncludingSplitCalls() {
        List<String> log = List.of(
                "100  1700000000.000001 openat(AT_FDCWD</w>, \"a\", O_RDONLY|O_CLOEXEC) = 3</w/a>",
                "100  1700000000.000002 openat(AT_FDCWD</w>, \"b\", O_WRONLY|O_CREAT, 0644) = 4</w/b>",
                "100  1700000000.000003 openat(AT_FDCWD</w>, \"d\", O_RDONLY|O_DIRECTORY) = 5</w/d>",
                "100  1700000000.000004 openat(AT_FDCWD</w>, \"x\", O_RDONLY) = -1 ENOENT (No such file)",
                "101  1700000000.000005 openat(AT_FDCWD</w>, \"c d\", O_RDONLY <unfinished ...>",
                "100  1700000000.000006 open(\"/w/e\", O_RDONLY) = 6</w/e>",
                "101  1700000000.000007 <... openat resumed>) = 7</w/c d\\303\\274>",
                "1700000000.000008 openat(AT_FDCWD</w>, \"f\", O_RDONLY) = 8</w/q\\\"uote>");
        assertEquals(List.of(new StraceLog.Open(1700000000.000001, "/w/a"),
                new StraceLog.Open(1700000000.000006, "/w/e"),
                new StraceLog.Open(1700000000.000007, "/w/c dü"),
                new StraceLog.Open(1700000000.000008, "/w/q\"uote")), StraceLog.parse(log));
    }

    @Test
    void recordsTheFilesCatReads() throws Exception {
        assumeTrue(Executables.find("strace").isPresent(),
                "strace is not installed (Debian package 'strace'); skipping");
        Path root = dir.resolve("root");
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("one.txt"), "one");
        Files.writeString(root.resolve("sub/two.txt"), "two!");
        Path trace = dir.resolve("cat.trace");
        String[] result = ArchiveCommandsTest.run("trace", "record", "-o", trace.toString(), "--root", root.toString(),
                "--", "cat", root.resolve("one.txt").toString(), root.resolve("sub/two.txt").toString());
        assertEquals("0", result[0]);
        Trace t = Trace.read(trace);
        assertEquals(1, t.runs().size());
        List<TraceEvent> loads = t.runs().getFirst().loads();
        assertEquals(List.of("one.txt", "sub/two.txt"), loads.stream().map(TraceEvent::path).toList());
        assertEquals(List.of(3L, 4L), loads.stream().map(TraceEvent::size).toList());
        assertEquals("0", ArchiveCommandsTest.run("trace", "record", "-o", trace.toString(), "--append",
                "--root", root.toString(), "--", "cat", root.resolve("one.txt").toString())[0]);
        assertEquals(2, Trace.read(trace).runs().size());
        assertTrue(Trace.read(trace).runs().get(1).loads().getFirst().path().equals("one.txt"));
    }
}
