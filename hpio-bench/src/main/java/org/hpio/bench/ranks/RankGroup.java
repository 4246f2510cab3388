package org.hpio.bench.ranks;

import org.hpio.bulk.LaunchRank;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The processes of one launch (ranks, as the launcher numbered them), meeting through a directory they all
 * see: the one that holds their shared file, on a parallel file system when they run on several machines. No
 * network of its own: a meeting is a marker file per rank, polled for.
 *
 * <ul>
 *   <li>{@link #exchange}: every rank leaves a short text and gets every rank's, in rank order (a barrier and a
 *       gather at once); {@link #meet} is one with nothing to say.</li>
 *   <li>Every rank does the same sequence of meetings (they are numbered, so a rank that strays waits alone
 *       and times out naming the others).</li>
 *   <li>{@link #fail} leaves a failure marker with the reason: every other rank stops at its next meeting with
 *       an error naming this rank. A rank that dies without one is found by its stopped heartbeat; one that
 *       never comes, by the meeting's timeout. Either way the error names the ranks, nobody hangs.</li>
 *   <li>{@link #leave} ends the run: rank 0 removes the directory once every rank is out.</li>
 * </ul>
 */
public final class RankGroup implements AutoCloseable {
    private final LaunchRank me;
    private final Path base;
    private final Path session;
    private final FailureMarkers failures;
    private final Heartbeat heartbeat;
    private final RankWait wait;
    private int meetings;
    private Optional<Path> previousMeeting = Optional.empty();

    private RankGroup(LaunchRank me, Path base, Path session, FailureMarkers failures, Heartbeat heartbeat,
                      RankWait wait) {
        this.me = me;
        this.base = base;
        this.session = session;
        this.failures = failures;
        this.heartbeat = heartbeat;
        this.wait = wait;
    }

    /**
     * Joins the other ranks of this launch in {@code base} (made if missing; rank 0 clears what an earlier
     * run left there). Returns once every rank has joined.
     */
    public static RankGroup join(Path base, LaunchRank me, RankTimeouts timeouts) throws IOException {
        Files.createDirectories(base);
        Path session = RankSession.establish(base, me, new RankWait(timeouts.meeting(), RankWait.Trouble.NONE));
        FailureMarkers failures = new FailureMarkers(RankSession.failuresOf(session));
        Liveness liveness = new Liveness(session, timeouts.silence());
        RankWait wait = new RankWait(timeouts.meeting(), (missing, now, where) -> {
            failures.check(missing, now, where);
            liveness.check(missing, now, where);
        });
        return new RankGroup(me, base, session, failures, Heartbeat.start(session, me.rank(), timeouts.heartbeat()), wait);
    }

    public LaunchRank launch() {
        return me;
    }

    public int rank() {
        return me.rank();
    }

    public int size() {
        return me.size();
    }

    /** Leaves {@code payload} (one line or a few) at meeting {@code label}; returns every rank's, by rank. */
    public List<String> exchange(String label, String payload) throws IOException {
        Path meeting = session.resolve(String.format("%05d-%s", meetings++, label.replaceAll("[^A-Za-z0-9._-]", "_")));
        Files.createDirectories(meeting);
        MarkerFile.write(meeting.resolve("rank-" + me.rank()), payload);
        String[] payloads = new String[me.size()];
        wait.await("meeting " + (meetings - 1) + " '" + label + "'", everyRank(), rank -> {
            Optional<String> left = MarkerFile.read(meeting.resolve("rank-" + rank));
            left.ifPresent(text -> payloads[rank] = text);
            return left.isPresent();
        });
        // Everyone is here, so everyone has read the meeting before: rank 0 tidies it away.
        if (me.isFirst() && previousMeeting.isPresent()) {
            MarkerFile.deleteTree(previousMeeting.get());
        }
        previousMeeting = Optional.of(meeting);
        return List.of(payloads);
    }

    /** A barrier: returns once every rank has come to meeting {@code label}. */
    public void meet(String label) throws IOException {
        exchange(label, "");
    }

    /** Tells every other rank that this one failed, and why; they stop at their next meeting naming it. */
    public void fail(Throwable why) throws IOException {
        failures.leave(me.rank(), why.getClass().getSimpleName() + ": " + why.getMessage() + " (on " + hostName() + ")");
    }

    /**
     * The last meeting: returns once every rank got here. Each other rank then stops its heartbeat and says it
     * is out; rank 0 waits for that and removes the meeting directory (nobody writes there any more).
     */
    public void leave() throws IOException {
        meet("end");
        if (!me.isFirst()) {
            stop(heartbeat);
            MarkerFile.write(session.resolve("left." + me.rank()), "");
            return;
        }
        wait.await("the end (ranks leaving)", IntStream.range(1, me.size()).boxed().toList(),
                rank -> Files.exists(session.resolve("left." + rank)));
        stop(heartbeat);
        MarkerFile.deleteTree(base);
    }

    /** Stops this rank's heartbeat (after {@link #leave}, or on the way out after a failure). */
    @Override
    public void close() {
        stop(heartbeat);
    }

    private List<Integer> everyRank() {
        return IntStream.range(0, me.size()).boxed().toList();
    }

    /** This machine's name, for the report and for failure messages. */
    public static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return System.getenv().getOrDefault("HOSTNAME", "unknown host");
        }
    }

    private static void stop(Heartbeat heartbeat) {
        try {
            heartbeat.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
