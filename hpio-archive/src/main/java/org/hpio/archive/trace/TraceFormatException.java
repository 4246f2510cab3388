package org.hpio.archive.trace;

import java.io.IOException;

/** A line of a trace file that is not an event of the text form; names the source and the line number. */
public final class TraceFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String sourceName;
    private final long lineNumber;

    /**
     * @param sourceName where the text came from (a file name)
     * @param lineNumber the 1-based number of the bad line
     * @param problem    what is wrong with it
     */
    public TraceFormatException(String sourceName, long lineNumber, String problem) {
        super(sourceName + " line " + lineNumber + ": " + problem);
        this.sourceName = sourceName;
        this.lineNumber = lineNumber;
    }

    /** Where the text came from. */
    public String sourceName() {
        return sourceName;
    }

    /** The 1-based number of the bad line. */
    public long lineNumber() {
        return lineNumber;
    }
}
