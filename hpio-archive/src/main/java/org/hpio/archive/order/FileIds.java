package org.hpio.archive.order;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Step 1 of 002 §3.3 ("Prepare DAG of Files", §3.3.1): every file to be placed becomes a node with a small
 * integer id, its index in the caller's list (the paper uses 16-bit ids found through a tree; a hash map
 * here). Immutable.
 */
final class FileIds {
    private final List<String> paths;
    private final Map<String, Integer> idByPath;

    /** Ids for {@code paths}, which must be distinct. */
    FileIds(List<String> paths) {
        this.paths = List.copyOf(paths);
        this.idByPath = HashMap.newHashMap(paths.size());
        for (int i = 0; i < this.paths.size(); i++) {
            if (idByPath.putIfAbsent(this.paths.get(i), i) != null) {
                throw new IllegalArgumentException("file listed twice: " + this.paths.get(i));
            }
        }
    }

    /** The id of {@code path}, or -1 when it is not a file to be placed. */
    int id(String path) {
        Integer id = idByPath.get(path);
        return id == null ? -1 : id;
    }

    /** The path of node {@code id}. */
    String path(int id) {
        return paths.get(id);
    }

    /** How many files there are. */
    int size() {
        return paths.size();
    }
}
