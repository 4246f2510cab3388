package org.hpio.archive.alloc;

/** No free block nor untouched space can hold a region of the requested size. */
public final class RegionFullException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RegionFullException(String message) {
        super(message);
    }
}
