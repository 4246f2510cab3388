package org.hpio.nio;

/** {@link AsynchronousFileChannelContract} on hpio's channel over io_uring. */
class HpioUringAsynchronousFileChannelTest extends AsynchronousFileChannelContract {
    @Override
    Implementation implementation() {
        return Implementation.HPIO_URING;
    }
}
