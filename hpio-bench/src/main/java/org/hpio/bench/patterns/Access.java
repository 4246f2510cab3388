package org.hpio.bench.patterns;

/** The four access patterns of 004's tests: sequential and random, reads and writes. */
enum Access {
    SEQ_READ("seq-read", "sequential read", false, false),
    SEQ_WRITE("seq-write", "sequential write", true, false),
    RANDOM_READ("random-read", "random read", false, true),
    RANDOM_WRITE("random-write", "random write", true, true);

    private final String key;
    private final String title;
    private final boolean write;
    private final boolean random;

    Access(String key, String title, boolean write, boolean random) {
        this.key = key;
        this.title = title;
        this.write = write;
        this.random = random;
    }

    String key() {
        return key;
    }

    String title() {
        return title;
    }

    boolean write() {
        return write;
    }

    boolean random() {
        return random;
    }
}
