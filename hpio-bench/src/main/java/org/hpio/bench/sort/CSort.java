package org.hpio.bench.sort;

import org.hpio.bench.machine.CProgram;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The C row of 000 Table 2: {@code hpio_sort.c}, the same single-buffered initial pass, bulk synchronous
 * (read(2)/write(2) of whole chunks, byte swaps in bulk, a plain quicksort). Its times are taken inside the
 * program, from before it opens the files to after it closes them, so process start-up is not counted.
 */
final class CSort {
    static final String PROGRAM = "hpio_sort";

    private CSort() {
    }

    static SortConfig config(CProgram program, boolean direct) {
        return new SortConfig(direct ? "c-direct" : "c",
                "C, read/write of whole chunks, quicksort" + (direct ? ", O_DIRECT" : " (000 Table 2's C row)"),
                false, direct, (in, out, chunk) -> run(program, in, out, chunk, direct));
    }

    static SortTimes.Breakdown run(CProgram program, Path in, Path out, int chunkLongs, boolean direct)
            throws IOException {
        List<String> args = new ArrayList<>(List.of(in.toString(), out.toString(), Integer.toString(chunkLongs)));
        if (direct) {
            args.add("--direct");
        }
        Process p = program.start(args);
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        int exit;
        try {
            exit = p.waitFor();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while " + PROGRAM + " ran");
        }
        return parse(output, exit);
    }

    /** The figures of a "DONE total read write sort" line (nanoseconds), or an error with what the program said. */
    static SortTimes.Breakdown parse(String output, int exit) throws IOException {
        String done = output.lines().filter(l -> l.startsWith("DONE ")).findFirst().orElse(null);
        if (exit != 0 || done == null) {
            throw new IOException(PROGRAM + " failed (exit " + exit + "): " + output);
        }
        String[] f = done.split(" ");
        if (f.length != 5) {
            throw new IOException(PROGRAM + " printed an unexpected line: " + done);
        }
        return new SortTimes.Breakdown(ns(f[1]), ns(f[2]), ns(f[3]), ns(f[4]), 0);
    }

    private static double ns(String text) {
        return Long.parseLong(text) / 1e9;
    }
}
