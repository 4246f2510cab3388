package org.hpio.nio;

import org.hpio.internal.io.IoEngine;

import java.io.IOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/** How a contract test opens its channels: the JDK's own, or hpio's on a given engine. */
interface Opener {
    FileChannel open(Path path, OpenOption... options) throws IOException;

    AsynchronousFileChannel openAsync(Path path, Set<? extends OpenOption> options, ExecutorService executor)
            throws IOException;

    /** The JDK's channels. */
    Opener JDK = new Opener() {
        @Override
        public FileChannel open(Path path, OpenOption... options) throws IOException {
            return FileChannel.open(path, options);
        }

        @Override
        public AsynchronousFileChannel openAsync(Path path, Set<? extends OpenOption> options, ExecutorService executor)
                throws IOException {
            return AsynchronousFileChannel.open(path, options, executor);
        }
    };

    /**
     * hpio's channels: asynchronous ones on {@code engine}, FileChannels' calls spread over {@code rings}
     * ({@link EngineRings}), through a provider over the platform's.
     */
    static Opener hpio(IoEngine engine, List<IoEngine> rings) {
        return hpio(new HpioFileSystemProvider.EngineSource() {
            @Override
            public IoEngine engine() {
                return engine;
            }

            @Override
            public List<IoEngine> rings() {
                return rings;
            }
        });
    }

    /** hpio's channels on {@code engines}, through a provider over the platform's. */
    static Opener hpio(HpioFileSystemProvider.EngineSource engines) {
        NativeFiles.awaitChannelCallsForTests();   // no channel of a test served by the JDK's while a warm-up runs
        HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider(), engines);
        return new Opener() {
            @Override
            public FileChannel open(Path path, OpenOption... options) throws IOException {
                return provider.newFileChannel(path, Set.of(options));
            }

            @Override
            public AsynchronousFileChannel openAsync(Path path, Set<? extends OpenOption> options,
                                                     ExecutorService executor) throws IOException {
                return provider.newAsynchronousFileChannel(path, options, executor);
            }
        };
    }
}
