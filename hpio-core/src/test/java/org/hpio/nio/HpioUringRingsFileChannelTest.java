package org.hpio.nio;

/** {@link FileChannelContract} on hpio's channel with its calls spread over two io_uring engines. */
class HpioUringRingsFileChannelTest extends FileChannelContract {
    @Override
    Implementation implementation() {
        return Implementation.HPIO_URING_RINGS;
    }
}
