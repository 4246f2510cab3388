package org.hpio.nio;

import java.nio.file.OpenOption;

/** hpio's own {@link OpenOption}s for the channels of {@link HpioChannels} and {@link HpioFileSystemProvider}. */
public enum HpioOpenOption implements OpenOption {
    /**
     * O_DIRECT: the page cache is bypassed. Buffer address (of a direct buffer; heap buffers are staged in
     * 4 KiB-aligned memory), file position and length must be multiples of the file's direct-I/O alignment,
     * else the operation fails with an IOException naming which is off. The JDK's
     * {@code com.sun.nio.file.ExtendedOpenOption.DIRECT} is taken as the same option.
     */
    DIRECT
}
