package org.hpio.nio;

import org.hpio.internal.sys.Syscalls;

import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * The open options of one hpio channel, split in two: what the JDK's own channel on the same file is opened
 * with ({@link #forJdk}: it validates the combination, creates or truncates the file and throws the JDK's
 * exceptions, exactly), and the open(2) flags of hpio's descriptor for the engine ({@link #nativeFlags}).
 */
record ChannelOptions(boolean readable, boolean writable, boolean append, boolean direct, boolean dsync,
                      boolean sync, boolean deleteOnClose, Set<OpenOption> forJdk) {

    static ChannelOptions of(Set<? extends OpenOption> options) {
        Set<OpenOption> jdk = new HashSet<>();
        boolean direct = false;
        for (OpenOption option : options) {
            Objects.requireNonNull(option);
            if (option == HpioOpenOption.DIRECT || isJdkDirect(option)) {
                direct = true;
            } else if (option != StandardOpenOption.DELETE_ON_CLOSE) {
                jdk.add(option);
            }
        }
        boolean deleteOnClose = options.contains(StandardOpenOption.DELETE_ON_CLOSE);
        if (deleteOnClose && !options.contains(StandardOpenOption.CREATE_NEW)) {
            jdk.add(LinkOption.NOFOLLOW_LINKS);   // as the JDK's own: never deletes through a symbolic link
        }
        boolean append = options.contains(StandardOpenOption.APPEND);
        boolean write = options.contains(StandardOpenOption.WRITE) || append;
        boolean read = options.contains(StandardOpenOption.READ) || !write;
        return new ChannelOptions(read, write, append, direct, options.contains(StandardOpenOption.DSYNC),
                options.contains(StandardOpenOption.SYNC), deleteOnClose, Set.copyOf(jdk));
    }

    /** Whether an open asks for a plain read-only channel: READ alone or no option at all, and no attribute. */
    static boolean plainRead(Set<? extends OpenOption> options, FileAttribute<?>... attrs) {
        return attrs.length == 0
                && (options.isEmpty() || options.size() == 1 && options.contains(StandardOpenOption.READ));
    }

    /** {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}, recognised without a dependency on jdk.unsupported. */
    private static boolean isJdkDirect(OpenOption option) {
        return option instanceof Enum<?> e && e.name().equals("DIRECT")
                && e.getDeclaringClass().getName().equals("com.sun.nio.file.ExtendedOpenOption");
    }

    /**
     * The options of the JDK's channel when it serves the file alone (a file hpio's engine does not serve, see
     * {@link NativeFiles#servedByEngine}), opened again after a first open with {@link #forJdk}: that one's
     * options with DELETE_ON_CLOSE, and O_DIRECT as the JDK's own {@code ExtendedOpenOption.DIRECT}, so that
     * neither is dropped (O_DIRECT then works on a block device and is refused where the kernel refuses it, as
     * on /proc); without CREATE_NEW, CREATE and TRUNCATE_EXISTING, whose work the first open did (CREATE_NEW
     * again failed on the file it had just created, and left it there).
     *
     * @throws UnsupportedOperationException O_DIRECT was asked for and this runtime lacks the JDK's option
     */
    Set<OpenOption> forJdkAlone() {
        Set<OpenOption> alone = new HashSet<>(forJdk);
        alone.remove(StandardOpenOption.CREATE_NEW);
        alone.remove(StandardOpenOption.CREATE);
        alone.remove(StandardOpenOption.TRUNCATE_EXISTING);
        if (deleteOnClose) {
            alone.add(StandardOpenOption.DELETE_ON_CLOSE);
            alone.add(LinkOption.NOFOLLOW_LINKS);   // never deletes through a link (CREATE_NEW implied it)
        }
        if (direct) {
            alone.add(jdkDirect());
        }
        return alone;
    }

    /**
     * {@code com.sun.nio.file.ExtendedOpenOption.DIRECT} (module jdk.unsupported), found by name: hpio does
     * not depend on that module, which every JDK has unless an image was linked without it.
     */
    private static OpenOption jdkDirect() {
        try {
            Class<?> type = Class.forName("com.sun.nio.file.ExtendedOpenOption");
            for (Object constant : type.getEnumConstants()) {
                if (constant instanceof OpenOption option && isJdkDirect(option)) {
                    return option;
                }
            }
        } catch (ClassNotFoundException e) {
            // below
        }
        throw new UnsupportedOperationException("O_DIRECT on a file hpio's engine does not serve (a device, a "
                + "pipe, a pseudo file system's file) needs the JDK's ExtendedOpenOption.DIRECT (module "
                + "jdk.unsupported), which this runtime lacks");
    }

    /**
     * The flags of hpio's own descriptor: access mode, O_DIRECT, O_DSYNC, O_SYNC (the JDK's open created it),
     * and O_NOFOLLOW where the JDK's open had it (NOFOLLOW_LINKS, which DELETE_ON_CLOSE implies).
     */
    int nativeFlags() {
        int flags = readable && writable ? Syscalls.O_RDWR : writable ? Syscalls.O_WRONLY : Syscalls.O_RDONLY;
        if (forJdk.contains(LinkOption.NOFOLLOW_LINKS)) {
            flags |= Syscalls.O_NOFOLLOW;
        }
        if (append) {
            flags |= Syscalls.O_APPEND;   // an append-only file (chattr +a) opens for writing only so
        }
        if (direct) {
            flags |= Syscalls.O_DIRECT;
        }
        if (sync) {
            flags |= Syscalls.O_SYNC;
        } else if (dsync) {
            flags |= Syscalls.O_DSYNC;
        }
        return flags | Syscalls.O_CLOEXEC;
    }
}
