package org.hpio.archive.trace;

import java.util.Objects;

/**
 * One line of a load trace: at {@code seconds} since its run started, the program loaded ({@link Kind#LOAD}) or
 * released ({@link Kind#FREE}) the whole file {@code path} of {@code size} bytes (002 §3.3.2).
 *
 * @param seconds time since the run started, finite and not negative; written with microsecond precision
 * @param kind    load or release
 * @param path    the file, relative to the root the program loaded from; not empty, no line breaks
 * @param size    the file's size in bytes, not negative
 */
public record TraceEvent(double seconds, Kind kind, String path, long size) {
    /** What happened to the file. */
    public enum Kind {
        /** The whole file was loaded ({@code L} in the text form). */
        LOAD('L'),
        /** The buffer a load returned was released ({@code F} in the text form). */
        FREE('F');

        private final char letter;

        Kind(char letter) {
            this.letter = letter;
        }

        /** The letter of the text form: {@code L} or {@code F}. */
        public char letter() {
            return letter;
        }

        /** The kind written as {@code letter}, or {@code null} when it is neither {@code L} nor {@code F}. */
        static Kind ofLetter(char letter) {
            return switch (letter) {
                case 'L' -> LOAD;
                case 'F' -> FREE;
                default -> null;
            };
        }
    }

    /** Checks every field; throws {@link IllegalArgumentException} naming the bad one. */
    public TraceEvent {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(path, "path");
        if (!Double.isFinite(seconds) || seconds < 0) {
            throw new IllegalArgumentException("trace event time must be finite and >= 0, was " + seconds);
        }
        if (path.isEmpty() || path.indexOf('\n') >= 0 || path.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("trace event path must be non-empty without line breaks, was '"
                    + path + "'");
        }
        if (size < 0) {
            throw new IllegalArgumentException("trace event size must be >= 0, was " + size + " for " + path);
        }
    }

    /** A load of {@code path} ({@code size} bytes) at {@code seconds}. */
    public static TraceEvent load(double seconds, String path, long size) {
        return new TraceEvent(seconds, Kind.LOAD, path, size);
    }

    /** A release of {@code path} ({@code size} bytes) at {@code seconds}. */
    public static TraceEvent free(double seconds, String path, long size) {
        return new TraceEvent(seconds, Kind.FREE, path, size);
    }

    /** Whether this is a load. */
    public boolean isLoad() {
        return kind == Kind.LOAD;
    }

    /** The time in whole microseconds, the precision of the text form. */
    long micros() {
        return Math.round(seconds * 1e6);
    }
}
