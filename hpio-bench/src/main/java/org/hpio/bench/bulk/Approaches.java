package org.hpio.bench.bulk;

import java.util.ArrayList;
import java.util.List;

/** Every Java approach by name: the JDK's and hpio's. */
public final class Approaches {
    private Approaches() {
    }

    public static List<Approach> all() {
        List<Approach> all = new ArrayList<>(JdkApproaches.all());
        all.addAll(HpioApproaches.all());
        return all;
    }

    public static Approach byName(String name) {
        return all().stream().filter(a -> a.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no approach named " + name));
    }
}
