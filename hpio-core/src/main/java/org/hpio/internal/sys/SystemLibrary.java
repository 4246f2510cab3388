package org.hpio.internal.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.util.function.Function;

/**
 * An optional system library bound through FFM (libdeflate, libzstd, libbz2): looked up once, unless its system
 * property ({@code -Dhpio.NAME=false}) turns it off or native calls are off, and then either its downcall handles
 * ({@code calls}) or the reason it is not used ({@code unavailableReason}). A record, so that the JIT trusts its
 * field as it trusts a static final one: a call through {@code LIBRARY.calls().x()} folds to a constant handle.
 *
 * @param calls             the bound downcall handles, or null when the library is not used
 * @param unavailableReason why the library is not used, or null when it is
 */
record SystemLibrary<T>(T calls, String unavailableReason) {
    /**
     * Binds {@code file} (e.g. {@code libbz2.so.1.0}) with {@code binder}, unless {@code -Dhpio.NAME=false}
     * ({@code name}: e.g. {@code libbz2}) or native calls are off; a library that is missing or refused is
     * reported as such, naming the Debian package {@code debianPackage} to install.
     */
    static <T> SystemLibrary<T> bind(String name, String file, String debianPackage,
                                     Function<SymbolLookup, T> binder) {
        String property = "hpio." + name;
        if (!Boolean.parseBoolean(System.getProperty(property, "true"))) {
            return new SystemLibrary<>(null, "turned off by -D" + property + "=false");
        }
        if (!NativeAccess.available()) {
            return new SystemLibrary<>(null, "native calls are off: " + NativeAccess.unavailableReason());
        }
        try {
            return new SystemLibrary<>(binder.apply(SymbolLookup.libraryLookup(file, Arena.global())), null);
        } catch (RuntimeException e) {   // not found, or native access refused (IllegalCallerException)
            return new SystemLibrary<>(null,
                    file + " cannot be used (install Debian's package " + debianPackage + "): " + e);
        }
    }

    /** Whether the library was found and may be used. */
    boolean available() {
        return calls != null;
    }
}
