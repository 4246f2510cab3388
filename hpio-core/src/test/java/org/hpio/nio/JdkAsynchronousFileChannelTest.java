package org.hpio.nio;

/** {@link AsynchronousFileChannelContract} on the JDK's own channel. */
class JdkAsynchronousFileChannelTest extends AsynchronousFileChannelContract {
    @Override
    Implementation implementation() {
        return Implementation.JDK;
    }
}
