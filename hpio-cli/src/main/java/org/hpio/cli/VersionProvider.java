package org.hpio.cli;

import org.hpio.Hpio;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * {@code hpio --version}: the Maven project version the CLI was built with (a filtered resource), then the
 * engine and native features active here ({@link Hpio#describe()}).
 */
final class VersionProvider implements CommandLine.IVersionProvider {
    private static final String RESOURCE = "version.properties";

    /** The project version, e.g. {@code 0.1.0-SNAPSHOT}. */
    static String version() {
        try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path: rebuild the CLI");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String[] getVersion() throws IOException {
        return ("hpio " + version() + "\n" + Hpio.describe()).split("\n");
    }
}
