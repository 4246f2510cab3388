package org.hpio.nio;

/** {@link AsynchronousFileChannelContract} on hpio's channel over the portable engine. */
class HpioThreadsAsynchronousFileChannelTest extends AsynchronousFileChannelContract {
    @Override
    Implementation implementation() {
        return Implementation.HPIO_THREADS;
    }
}
