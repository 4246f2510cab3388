/**
 * The eviction policies of the whole-file cache (002 §3.5.3): LRU and the Landlord variants, each registered
 * once in {@link org.hpio.archive.cache.policy.Policies}; the runtime cache and the simulations both use them.
 */
package org.hpio.archive.cache.policy;
