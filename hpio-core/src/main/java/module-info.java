/**
 * hpio-core: bulk typed-array I/O ({@code org.hpio.bulk}), asynchronous bulk I/O ({@code org.hpio.async}) and
 * the JDK's file channels on hpio's engine ({@code org.hpio.nio}); {@code org.hpio.Hpio} says which native
 * features are active (all public APIs also work with native access denied, on the JDK's own calls).
 * Engines and native memory stay internal.
 */
module org.hpio.core {
    exports org.hpio;
    exports org.hpio.bulk;
    exports org.hpio.async;
    exports org.hpio.nio;
    // The archive's allocator reserves lazily committed address space (VirtualMemory).
    exports org.hpio.internal.sys to org.hpio.archive;
    // The archive's block buffers and load memory come from the pools staging uses (BufferPool, MemoryPool).
    exports org.hpio.internal.mem to org.hpio.archive;
}
