package org.hpio.archive;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/** Turns a path relative to an archive's root into an entry name, refusing paths that leave the root. */
final class EntryNames {
    private EntryNames() {
    }

    /**
     * The entry name of {@code relativePath}: '/'-separated, without "." and empty components, ".." resolved.
     *
     * @throws IllegalArgumentException when the path is empty, absolute, escapes the root or is too long
     */
    static String of(String relativePath) {
        if (isCanonical(relativePath)) {
            return relativePath; // the common case, without splitting and joining
        }
        if (relativePath.isEmpty() || relativePath.startsWith("/")) {
            throw new IllegalArgumentException("path '" + relativePath + "' must be relative to the archive root");
        }
        Deque<String> parts = new ArrayDeque<>();
        for (String part : relativePath.split("/")) {
            if (part.equals("..")) {
                if (parts.isEmpty()) {
                    throw new IllegalArgumentException("path '" + relativePath + "' escapes the archive root");
                }
                parts.removeLast();
            } else if (!part.isEmpty() && !part.equals(".")) {
                parts.addLast(part);
            }
        }
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("path '" + relativePath + "' names the root, not a file");
        }
        String name = String.join("/", parts);
        if (name.getBytes(StandardCharsets.UTF_8).length > ZipFormat.MAX_16) {
            throw new IllegalArgumentException("path '" + name + "' is longer than a Zip entry name may be");
        }
        return name;
    }

    /**
     * Whether {@code path} is already an entry name: non-empty, relative, no empty, "." or ".." component, and
     * short enough however it encodes (at most 3 UTF-8 bytes per char).
     */
    private static boolean isCanonical(String path) {
        int n = path.length();
        if (n == 0 || n * 3 > ZipFormat.MAX_16 || path.charAt(0) == '/' || path.charAt(n - 1) == '/') {
            return false;
        }
        int componentStart = 0;
        for (int i = 0; i <= n; i++) {
            if (i == n || path.charAt(i) == '/') {
                int length = i - componentStart;
                if (length == 0 || path.charAt(componentStart) == '.'
                        && (length == 1 || length == 2 && path.charAt(componentStart + 1) == '.')) {
                    return false;
                }
                componentStart = i + 1;
            }
        }
        return true;
    }

    /**
     * Why the entry name {@code name}, read from a foreign archive, is unsafe to use as a path (absolute, a
     * drive letter, a {@code ..} component with either separator, a NUL, or empty); null when it is safe.
     */
    static String unsafeReason(String name) {
        if (name.isEmpty()) {
            return "the name is empty";
        }
        if (name.startsWith("/") || name.startsWith("\\") || name.length() >= 2 && name.charAt(1) == ':') {
            return "an absolute path";
        }
        if (name.indexOf('\0') >= 0) {
            return "it holds a NUL character";
        }
        if (!name.contains("..")) {
            return null;
        }
        for (String part : name.split("[/\\\\]")) {
            if (part.equals("..")) {
                return "a '..' component leaves the archive root";
            }
        }
        return null;
    }
}
