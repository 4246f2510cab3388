/**
 * hpio-core: bulk typed-array I/O ({@code org.hpio.bulk}). Engines and native memory stay internal.
 */
module org.hpio.core {
    exports org.hpio.bulk;
}
