package org.hpio.internal.io;

import java.io.IOException;
import java.util.List;

/**
 * {@link IoEngine#submitAll} admitted only the first {@link #submitted()} operations of a batch before it
 * failed (the cause says why): those are in flight and their buffers are the engine's until they are done.
 */
public final class PartialSubmissionException extends IOException {
    private final transient List<IoRequest> submitted;

    PartialSubmissionException(List<IoRequest> submitted, int asked, IOException cause) {
        super("submitted " + submitted.size() + " of " + asked + " operations: " + cause.getMessage(), cause);
        this.submitted = List.copyOf(submitted);
    }

    /** The requests that did go out, in the order of the batch. */
    public List<IoRequest> submitted() {
        return submitted;
    }
}
