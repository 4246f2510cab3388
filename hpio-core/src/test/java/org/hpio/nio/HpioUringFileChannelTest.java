package org.hpio.nio;

/** {@link FileChannelContract} on hpio's channel over io_uring. */
class HpioUringFileChannelTest extends FileChannelContract {
    @Override
    Implementation implementation() {
        return Implementation.HPIO_URING;
    }
}
