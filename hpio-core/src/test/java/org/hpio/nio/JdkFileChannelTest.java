package org.hpio.nio;

/** {@link FileChannelContract} on the JDK's own channel. */
class JdkFileChannelTest extends FileChannelContract {
    @Override
    Implementation implementation() {
        return Implementation.JDK;
    }
}
