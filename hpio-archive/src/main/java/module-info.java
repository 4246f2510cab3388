/**
 * hpio-archive: access-ordered archives, load traces, trace-driven ordering, caches and the allocator of
 * Wassenberg (002). Built on hpio-core. No package is public yet: the archive issues add
 * {@code org.hpio.archive} and its sub-packages, and export them here.
 */
module org.hpio.archive {
    requires org.hpio.core;
}
