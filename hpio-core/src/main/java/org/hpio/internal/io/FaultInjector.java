package org.hpio.internal.io;

import org.hpio.internal.sys.Errno;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The countdown fault injector storage engines test with: counting the operations it is asked about (those of
 * the kinds it targets), it fails the Nth one only ({@link Mode#ONCE}), or every one from the Nth on
 * ({@link Mode#FROM_NTH_ON}: a device that died). Plug it into an engine with
 * {@link EngineConfig#withFaults}; it works the same on both engines, since both consult the hook at
 * admission (see {@link InjectedFault} for what each kind does there).
 *
 * <p>Kinds: EIO, ENOSPC and ECANCELED complete the operation with that errno and no I/O; SHORT makes a read or
 * write move only the first half of its bytes (for real) and report that; EAGAIN_ON_SUBMIT and
 * EINTR_ON_SUBMIT make the submitting call throw, with nothing left in flight.
 *
 * <p>Thread-safe; {@link #operations()} and {@link #injected()} are the figures of the reliability report.
 */
public final class FaultInjector implements EngineConfig.FaultHook {
    /** What to inject. */
    public enum Kind {
        EIO(Errno.EIO), ENOSPC(Errno.ENOSPC), ECANCELED(Errno.ECANCELED), SHORT(0),
        EAGAIN_ON_SUBMIT(Errno.EAGAIN), EINTR_ON_SUBMIT(Errno.EINTR);

        final int errno;

        Kind(int errno) {
            this.errno = errno;
        }

        /** The operation kinds this fault applies to by default: reads and writes for SHORT, else all I/O. */
        public Set<IoOperation.Kind> defaultTargets() {
            return this == SHORT ? EnumSet.of(IoOperation.Kind.READ, IoOperation.Kind.WRITE)
                    : EnumSet.of(IoOperation.Kind.READ, IoOperation.Kind.WRITE, IoOperation.Kind.FSYNC,
                    IoOperation.Kind.WRITE_THEN_FSYNC);
        }
    }

    /** The countdown: fail the Nth operation once, or every operation from the Nth on. */
    public enum Mode { ONCE, FROM_NTH_ON }

    private final Kind kind;
    private final Mode mode;
    private final long nth;
    private final Set<IoOperation.Kind> targets;
    private final AtomicLong operations = new AtomicLong();
    private final AtomicLong injected = new AtomicLong();

    /**
     * Fails (with {@code kind}) the {@code nth} (from 1) operation of a kind in {@code targets}, once or from
     * then on; operations of other kinds pass untouched and uncounted.
     */
    public FaultInjector(Kind kind, Mode mode, long nth, Set<IoOperation.Kind> targets) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.mode = Objects.requireNonNull(mode, "mode");
        if (nth < 1) {
            throw new IllegalArgumentException("the countdown starts at 1, not " + nth);
        }
        this.nth = nth;
        this.targets = EnumSet.copyOf(targets);
        if (kind == Kind.SHORT && !kind.defaultTargets().containsAll(this.targets)) {
            throw new IllegalArgumentException("a short transfer applies to reads and writes only, not " + targets);
        }
    }

    /** {@code kind} on the {@code nth} operation (once or from then on) of the kinds it applies to. */
    public static FaultInjector countdown(Kind kind, Mode mode, long nth) {
        return new FaultInjector(kind, mode, nth, kind.defaultTargets());
    }

    @Override
    public InjectedFault faultFor(IoOperation operation) {
        if (!targets.contains(operation.kind())) {
            return InjectedFault.NONE;
        }
        long n = operations.incrementAndGet();
        boolean hit = mode == Mode.ONCE ? n == nth : n >= nth;
        if (!hit || (kind == Kind.SHORT && operation.length() < 2)) {
            return InjectedFault.NONE;
        }
        injected.incrementAndGet();
        return switch (kind) {
            case EIO, ENOSPC, ECANCELED -> InjectedFault.completeWith(kind.errno);
            case SHORT -> InjectedFault.shortTransfer(operation.length() / 2);
            case EAGAIN_ON_SUBMIT, EINTR_ON_SUBMIT -> InjectedFault.refuseSubmission(kind.errno);
        };
    }

    /** The errno {@link #faultFor} completes the operation with (0 for other outcomes); counts like it. */
    @Override
    public int errnoFor(IoOperation operation) {
        InjectedFault fault = faultFor(operation);
        return fault.kind() == InjectedFault.Kind.COMPLETE_WITH_ERRNO ? fault.errno() : 0;
    }

    /** Operations of the targeted kinds asked about so far. */
    public long operations() {
        return operations.get();
    }

    /** Faults injected so far. */
    public long injected() {
        return injected.get();
    }

    public Kind kind() {
        return kind;
    }

    public Mode mode() {
        return mode;
    }

    public long nth() {
        return nth;
    }

    @Override
    public String toString() {
        return kind + (mode == Mode.ONCE ? " once at operation " : " from operation ") + nth + " on";
    }
}
