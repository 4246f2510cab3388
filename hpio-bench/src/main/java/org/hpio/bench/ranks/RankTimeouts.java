package org.hpio.bench.ranks;

import java.time.Duration;

/**
 * How long ranks wait for each other at a meeting point.
 *
 * @param meeting   the longest wait for a rank that has not arrived (it may still be starting its JVM, or doing a
 *                  long run); past it the meeting fails naming the missing ranks
 * @param silence   a rank whose heartbeat was seen beating and then stands still this long is taken for dead, and
 *                  the meeting fails naming it at once rather than at the timeout
 * @param heartbeat how often each rank's heartbeat beats
 */
public record RankTimeouts(Duration meeting, Duration silence, Duration heartbeat) {
    /** Property (seconds) for {@link #meeting}: {@code -Dhpio.ranks.timeout=300}. */
    public static final String MEETING_PROPERTY = "hpio.ranks.timeout";
    /** Property (seconds) for {@link #silence}: {@code -Dhpio.ranks.silence=20}. */
    public static final String SILENCE_PROPERTY = "hpio.ranks.silence";

    public RankTimeouts {
        if (heartbeat.isNegative() || heartbeat.isZero() || silence.compareTo(heartbeat.multipliedBy(2)) < 0
                || meeting.compareTo(silence) < 0) {
            throw new IllegalArgumentException("need 0 < 2 x heartbeat <= silence <= meeting: heartbeat " + heartbeat
                    + ", silence " + silence + ", meeting " + meeting);
        }
    }

    /** Five minutes to meet, 20 s of heartbeat silence, a beat a second; or what the two properties say. */
    public static RankTimeouts fromSystemProperties() {
        return new RankTimeouts(seconds(MEETING_PROPERTY, 300), seconds(SILENCE_PROPERTY, 20), Duration.ofSeconds(1));
    }

    private static Duration seconds(String property, long byDefault) {
        String text = System.getProperty(property);
        if (text == null) {
            return Duration.ofSeconds(byDefault);
        }
        try {
            return Duration.ofMillis(Math.round(Double.parseDouble(text.strip()) * 1000));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + property + " must be seconds, e.g. 60 or 2.5: '" + text + "'");
        }
    }
}
