package org.hpio.bench.bulk;

import org.hpio.bench.data.Elements;
import org.hpio.bench.data.TestData;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A worker process of the approaches suite: {@code APPROACH READ|WRITE FILE ELEM_SIZE FIRST COUNT}. Prepares
 * its block (writes fill it from the generator) and does it once untimed (writes to a scratch file), prints READY, waits for a line on standard input, does the
 * I/O, and prints "DONE nanos checksum" as the C worker does.
 */
public final class BlockWorker {
    private BlockWorker() {
    }

    public static void main(String[] args) throws Exception {
        Approach approach = Approaches.byName(args[0]);
        SharedFileRun.Op op = SharedFileRun.Op.valueOf(args[1]);
        Path file = Path.of(args[2]);
        Elements elements = Integer.parseInt(args[3]) == 4 ? Elements.INT : Elements.LONG;
        long first = Long.parseLong(args[4]);
        int count = Integer.parseInt(args[5]);
        Object array = elements.newArray(count);
        if (op == SharedFileRun.Op.WRITE) {
            TestData.fill(array, 0, count, first);
        }
        // One untimed pass first, as the thread runs have: class loading, native linking and the JIT are a
        // program's start-up, not its I/O. A write warms up on a scratch file, so the timed write still
        // allocates its blocks as the thread runs' writes do.
        Path warmUp = op == SharedFileRun.Op.READ ? file
                : file.resolveSibling(file.getFileName() + ".warm-up-" + ProcessHandle.current().pid());
        if (op == SharedFileRun.Op.WRITE) {
            Files.createFile(warmUp);
        }
        try {
            SharedFileRun.doBlock(approach, op, warmUp, first * elements.size(), array, count);
        } finally {
            if (op == SharedFileRun.Op.WRITE) {
                Files.deleteIfExists(warmUp);
            }
        }
        System.out.println("READY");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII)).readLine();
        long t0 = System.nanoTime();
        SharedFileRun.doBlock(approach, op, file, first * elements.size(), array, count);
        long elapsed = System.nanoTime() - t0;
        System.out.println("DONE " + elapsed + " " + Long.toUnsignedString(TestData.checksum(array, 0, count, first)));
    }
}
