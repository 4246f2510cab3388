package org.hpio.nio;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The executor that runs completion handlers of channels opened without one: daemon threads made on demand
 * (handlers may block), idle ones leave after 60 s. Created on first use, never when the provider loads.
 */
final class DefaultHandlerPool {
    private DefaultHandlerPool() {
    }

    private static final class Holder {
        static final ExecutorService POOL;

        static {
            AtomicInteger n = new AtomicInteger();
            POOL = Executors.newCachedThreadPool(r -> Thread.ofPlatform().daemon()
                    .name("hpio-nio-handler-" + n.incrementAndGet()).unstarted(r));
        }
    }

    static ExecutorService get() {
        return Holder.POOL;
    }
}
