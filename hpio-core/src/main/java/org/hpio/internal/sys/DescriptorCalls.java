package org.hpio.internal.sys;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/** {@link FileCalls} as Linux system calls on a descriptor this object owns (see {@link Syscalls}). */
record DescriptorCalls(int fd, String path) implements FileCalls {
    static DescriptorCalls open(String path, int flags) throws IOException {
        return new DescriptorCalls(Syscalls.open(path, flags, 0666), path);
    }

    @Override
    public long read(MemorySegment buffer, long position) throws IOException {
        return Syscalls.pread(fd, buffer, position, path);
    }

    @Override
    public long write(MemorySegment buffer, long position) throws IOException {
        return Syscalls.pwrite(fd, buffer, position, path);
    }

    @Override
    public long size() throws IOException {
        return Syscalls.size(fd, path);
    }

    @Override
    public void force(boolean metadata) throws IOException {
        Syscalls.force(fd, metadata, path);
    }

    @Override
    public void advise(int advice) throws IOException {
        Syscalls.fadvise(fd, advice, path);
    }

    @Override
    public int descriptor() {
        return fd;
    }

    @Override
    public void close() throws IOException {
        Syscalls.close(fd, path);
    }
}
