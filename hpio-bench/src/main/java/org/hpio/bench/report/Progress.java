package org.hpio.bench.report;

import java.io.Console;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a long benchmark step, for the person watching. It is a bar on stderr only when someone can see it
 * (stderr is a terminal, not under CI, {@code -Dhpio.quiet=true} not given); otherwise every call does nothing.
 * It never writes to stdout, which belongs to the command's output. Use it with try-with-resources.
 */
public interface Progress extends AutoCloseable {

    /** Advances by one step. */
    void step();

    /** Advances by {@code n} steps. */
    void stepBy(long n);

    /** Shows {@code text} beside the bar (what is being done now); null or empty clears it. */
    void message(String text);

    /** Finishes the bar; further calls do nothing. */
    @Override
    void close();

    /**
     * Starts the progress of {@code task} over {@code totalSteps} steps (0 or less: unknown, the bar only counts).
     * Never throws: if the bar cannot be drawn, the progress is silent.
     */
    static Progress start(String task, long totalSteps) {
        if (!visible()) {
            return silent();
        }
        try {
            ProgressBar bar = new ProgressBarBuilder()
                    .setTaskName(task == null ? "" : task)
                    .setInitialMax(totalSteps > 0 ? totalSteps : -1)
                    .setStyle(ProgressBarStyle.ASCII)
                    .setUpdateIntervalMillis(250)
                    .build(); // draws on stderr (FileDescriptor.err)
            AtomicBoolean closed = new AtomicBoolean();
            return new Progress() {
                @Override
                public void step() {
                    bar.step();
                }

                @Override
                public void stepBy(long n) {
                    bar.stepBy(n);
                }

                @Override
                public void message(String text) {
                    bar.setExtraMessage(text == null ? "" : text);
                }

                @Override
                public void close() {
                    if (closed.compareAndSet(false, true)) {
                        bar.close();
                    }
                }
            };
        } catch (RuntimeException | LinkageError e) {
            return silent();
        }
    }

    /** A progress that shows nothing. */
    static Progress silent() {
        return new Progress() {
            @Override
            public void step() {
            }

            @Override
            public void stepBy(long n) {
            }

            @Override
            public void message(String text) {
            }

            @Override
            public void close() {
            }
        };
    }

    /** Whether a bar would be seen: stderr is a terminal, CI is not set, hpio.quiet is not "true". */
    private static boolean visible() {
        String ci = System.getenv("CI");
        if (ci != null && !ci.isEmpty()) {
            return false;
        }
        if (Boolean.getBoolean("hpio.quiet")) {
            return false;
        }
        return stderrIsTerminal();
    }

    /**
     * On Linux, what file descriptor 2 points at tells whether stderr itself is a terminal (stdout may be redirected
     * while stderr is not, and the other way round); elsewhere System.console() is the best guess.
     */
    private static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (Exception e) {
            Console console = System.console();
            return console != null && console.isTerminal();
        }
    }
}
