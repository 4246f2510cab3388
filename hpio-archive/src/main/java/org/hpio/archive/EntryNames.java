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
