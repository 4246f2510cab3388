/**
 * hpio-archive: access-ordered archives, load traces, trace-driven ordering, caches and the allocator of
 * Wassenberg (002). Built on hpio-core.
 */
module org.hpio.archive {
    requires org.hpio.core;

    exports org.hpio.archive;
    exports org.hpio.archive.alloc;
    exports org.hpio.archive.cache;
    exports org.hpio.archive.cache.policy;
    exports org.hpio.archive.order;
    exports org.hpio.archive.simulation;
    exports org.hpio.archive.trace;
}
