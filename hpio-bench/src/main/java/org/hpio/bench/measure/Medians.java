package org.hpio.bench.measure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Of repeated measurements of each configuration (rounds run interleaved, so a noisy neighbour on a shared
 * machine weighs on all configurations alike), the one with the median figure, in first-seen order.
 */
public final class Medians {
    private Medians() {
    }

    public static <T> List<T> byName(List<T> measured, Function<T, String> name, ToDoubleFunction<T> figure) {
        Map<String, List<T>> rounds = new LinkedHashMap<>();
        for (T m : measured) {
            rounds.computeIfAbsent(name.apply(m), k -> new ArrayList<>()).add(m);
        }
        List<T> medians = new ArrayList<>();
        for (List<T> r : rounds.values()) {
            List<T> sorted = new ArrayList<>(r);
            sorted.sort(Comparator.comparingDouble(figure));
            medians.add(sorted.get(sorted.size() / 2));
        }
        return medians;
    }
}
