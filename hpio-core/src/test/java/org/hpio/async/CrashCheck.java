package org.hpio.async;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The crash tests' checker: given what a {@link CrashWriter} printed before it died and the files left on the
 * disk, finds acknowledged-durable records that are missing or damaged (must be none), records that pass their
 * checksum yet hold the wrong bytes (must be none: never returned as valid), and counts the unacknowledged
 * records that survived or were detected lost.
 */
final class CrashCheck {
    /** The verdict for one crash. */
    record Report(long claimed, long claimedLost, long wrongButValid, long unclaimedIntact, long unclaimedDetected,
                  String firstProblem) {
        Report plus(Report o) {
            return new Report(claimed + o.claimed, claimedLost + o.claimedLost, wrongButValid + o.wrongButValid,
                    unclaimedIntact + o.unclaimedIntact, unclaimedDetected + o.unclaimedDetected,
                    firstProblem != null ? firstProblem : o.firstProblem);
        }

        static final Report NONE = new Report(0, 0, 0, 0, 0, null);
    }

    private CrashCheck() {
    }

    /** The records each file's lines of {@code kind} name: "D" durable, "W" written. */
    static Map<String, BitSet> lines(List<String> output, String kind) {
        Map<String, BitSet> claims = new HashMap<>();
        for (String line : output) {
            String[] w = line.split(" ");
            if (w.length == 4 && w[0].equals(kind)) {
                claims.computeIfAbsent(w[1], k -> new BitSet()).set(Integer.parseInt(w[2]), Integer.parseInt(w[3]));
            }
        }
        return claims;
    }

    /** Checks the writer's two files under {@code dir} against its {@code output}; seeds as the writer used them. */
    static Report check(Path dir, long seed, List<String> output) throws IOException {
        Map<String, Report> each = checkEach(dir, seed, output);
        return each.get(CrashWriter.ASYNC).plus(each.get(CrashWriter.BULK));
    }

    /** {@link #check}, per file. */
    static Map<String, Report> checkEach(Path dir, long seed, List<String> output) throws IOException {
        Map<String, BitSet> claims = lines(output, "D");
        Map<String, BitSet> written = lines(output, "W");
        Map<String, Report> each = new HashMap<>();
        each.put(CrashWriter.ASYNC, checkFile(dir.resolve(CrashWriter.ASYNC), seed,
                claims.getOrDefault(CrashWriter.ASYNC, new BitSet()), written.getOrDefault(CrashWriter.ASYNC, new BitSet())));
        each.put(CrashWriter.BULK, checkFile(dir.resolve(CrashWriter.BULK), seed + 1,
                claims.getOrDefault(CrashWriter.BULK, new BitSet()), written.getOrDefault(CrashWriter.BULK, new BitSet())));
        return each;
    }

    static Report checkFile(Path file, long seed, BitSet claimed, BitSet written) throws IOException {
        byte[] content = Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
        int records = Math.max(Math.max(claimed.length(), written.length()),
                (content.length + DurabilityWorkload.RECORD - 1) / DurabilityWorkload.RECORD);
        long claimedLost = 0;
        long wrongButValid = 0;
        long intact = 0;
        long detected = 0;
        String first = null;
        for (int i = 0; i < records; i++) {
            int from = i * DurabilityWorkload.RECORD;
            byte[] got = from + DurabilityWorkload.RECORD <= content.length
                    ? Arrays.copyOfRange(content, from, from + DurabilityWorkload.RECORD) : new byte[0];
            boolean valid = DurabilityWorkload.isValidRecord(got, i);
            boolean right = valid && Arrays.equals(got, DurabilityWorkload.record(seed, i));
            if (valid && !right) {
                wrongButValid++;
                first = first != null ? first : file.getFileName() + " record " + i + " passes its checksum with wrong bytes";
            }
            if (claimed.get(i)) {
                if (!right) {
                    claimedLost++;
                    first = first != null ? first : file.getFileName() + " record " + i + " was acknowledged durable but "
                            + (got.length == 0 ? "is missing (file has " + content.length + " bytes)" : "is damaged");
                }
            } else if (right) {
                intact++;
            } else {
                detected++;
            }
        }
        return new Report(claimed.cardinality(), claimedLost, wrongButValid, intact, detected, first);
    }
}
