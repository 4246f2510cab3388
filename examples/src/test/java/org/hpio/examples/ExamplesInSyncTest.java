package org.hpio.examples;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's code samples are copies of these examples: each {@code java} block that follows a line
 * {@code <!-- example: NAME -->} in ../README.md must appear, line for line (indentation aside), in
 * {@code src/main/java/org/hpio/examples/NAME.java} between {@code // README: ...} and {@code // README: end}.
 * And this build uses the version of hpio that the checkout builds.
 */
class ExamplesInSyncTest {
    private static final Path README = Path.of("..", "README.md");
    private static final Path SOURCES = Path.of("src", "main", "java", "org", "hpio", "examples");
    private static final Pattern SNIPPET = Pattern.compile("<!-- example: (\\w+) -->\\s*```java\\n(.*?)```",
            Pattern.DOTALL);

    /** A README code block and the example it is copied from. */
    record Snippet(String example, List<String> lines) {
    }

    @Test
    void everyReadmeSnippetIsInItsExample() throws IOException {
        List<Snippet> snippets = snippets(Files.readString(README));
        assertTrue(snippets.size() >= 5, "expected the README's five example snippets, found " + snippets.size());
        for (Snippet s : snippets) {
            List<String> marked = markedLines(Files.readString(SOURCES.resolve(s.example() + ".java")));
            assertTrue(containsInOrder(marked, s.lines()), () -> "README snippet of " + s.example()
                    + " differs from the example's // README: region; copy it again:\n" + String.join("\n", s.lines()));
        }
    }

    @Test
    void theExamplesUseTheCheckoutsVersion() throws IOException {
        String project = Files.readString(Path.of("..", "pom.xml"));
        String examples = Files.readString(Path.of("pom.xml"));
        assertEquals(firstMatch("<version>([^<]+)</version>", project), firstMatch("<hpio.version>([^<]+)</hpio.version>", examples),
                "examples/pom.xml's hpio.version must be the version in ../pom.xml");
    }

    static List<Snippet> snippets(String readme) {
        List<Snippet> found = new ArrayList<>();
        Matcher m = SNIPPET.matcher(readme);
        while (m.find()) {
            found.add(new Snippet(m.group(1), stripped(m.group(2))));
        }
        return found;
    }

    /** The lines between each "// README: NAME" and the next "// README: end", stripped. */
    static List<String> markedLines(String source) {
        List<String> marked = new ArrayList<>();
        boolean inside = false;
        for (String line : stripped(source)) {
            if (line.startsWith("// README:")) {
                inside = !line.equals("// README: end");
            } else if (inside) {
                marked.add(line);
            }
        }
        return marked;
    }

    private static boolean containsInOrder(List<String> haystack, List<String> needle) {
        return Collections.indexOfSubList(haystack, needle) >= 0;
    }

    private static List<String> stripped(String text) {
        return text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    private static String firstMatch(String regex, String text) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), "no " + regex);
        return m.group(1);
    }
}
