/**
 * hpio-core: bulk typed-array I/O ({@code org.hpio.bulk}) and asynchronous bulk I/O ({@code org.hpio.async}).
 * Engines and native memory stay internal.
 */
module org.hpio.core {
    exports org.hpio.bulk;
    exports org.hpio.async;
    // The archive's allocator reserves lazily committed address space (VirtualMemory).
    exports org.hpio.internal.sys to org.hpio.archive;
}
