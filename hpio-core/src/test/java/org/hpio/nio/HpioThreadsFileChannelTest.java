package org.hpio.nio;

/** {@link FileChannelContract} on hpio's channel over the portable engine. */
class HpioThreadsFileChannelTest extends FileChannelContract {
    @Override
    Implementation implementation() {
        return Implementation.HPIO_THREADS;
    }
}
