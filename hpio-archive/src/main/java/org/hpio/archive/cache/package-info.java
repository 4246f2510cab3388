/** The whole-file cache of 002 §3.5: policies, the extant list, the simulator. */
package org.hpio.archive.cache;
