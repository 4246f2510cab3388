package org.hpio.bench.ranks;

import java.io.IOException;

/** Another rank failed, stopped, or never came to a meeting: the message names it (or them) and where. */
public final class RankFailedException extends IOException {
    private final int rank;

    RankFailedException(int rank, String message) {
        super(message);
        this.rank = rank;
    }

    /** The (first) rank at fault. */
    public int rank() {
        return rank;
    }
}
