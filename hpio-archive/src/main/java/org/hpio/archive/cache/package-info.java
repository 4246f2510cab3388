/**
 * The whole-file cache of 002 §3.5 as programs use it: {@link org.hpio.archive.cache.FileCache} over the
 * headerless allocator, the extant list of buffers users hold, and an eviction policy of
 * {@code org.hpio.archive.cache.policy}.
 */
package org.hpio.archive.cache;
