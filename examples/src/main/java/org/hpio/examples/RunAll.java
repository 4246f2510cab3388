package org.hpio.examples;

/** Runs every example; the first that fails ends the run with its exception (a non-zero exit). */
public final class RunAll {
    private RunAll() {
    }

    public static void main(String[] args) throws Exception {
        BulkIo.main(args);
        AsyncIo.main(args);
        FileCaching.main(args);
        Archives.main(args);
        MountAndLoad.main(args);
        System.out.println("hpio examples: all 5 ran and checked their results");
    }
}
