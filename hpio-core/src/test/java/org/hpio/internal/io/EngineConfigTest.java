package org.hpio.internal.io;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EngineConfigTest {
    @Test
    void theDefaultsTakeTheirBoundFromThePropertyAndNameItWhenItIsWrong() {
        String before = System.getProperty(EngineConfig.MAX_IN_FLIGHT_PROPERTY);
        try {
            System.clearProperty(EngineConfig.MAX_IN_FLIGHT_PROPERTY);
            assertEquals(EngineConfig.DEFAULT_MAX_IN_FLIGHT, EngineConfig.defaults().maxInFlight());
            System.setProperty(EngineConfig.MAX_IN_FLIGHT_PROPERTY, "512");
            assertEquals(512, EngineConfig.defaults().maxInFlight());
            for (String wrong : new String[]{"0", "40000", "many"}) {
                System.setProperty(EngineConfig.MAX_IN_FLIGHT_PROPERTY, wrong);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, EngineConfig::defaults);
                assertTrue(e.getMessage().contains(EngineConfig.MAX_IN_FLIGHT_PROPERTY)
                        && e.getMessage().contains("'" + wrong + "'"), e.getMessage());
            }
        } finally {
            if (before == null) {
                System.clearProperty(EngineConfig.MAX_IN_FLIGHT_PROPERTY);
            } else {
                System.setProperty(EngineConfig.MAX_IN_FLIGHT_PROPERTY, before);
            }
        }
    }

    @Test
    void theSubmissionThreadIsOffByDefaultTakesItsIdleTimeFromThePropertyAndRefusesWrongOnes() {
        String before = System.getProperty(EngineConfig.SQ_POLL_PROPERTY);
        try {
            System.clearProperty(EngineConfig.SQ_POLL_PROPERTY);
            assertEquals(0, EngineConfig.defaults().sqPollIdleMillis());
            System.setProperty(EngineConfig.SQ_POLL_PROPERTY, "25");
            assertEquals(25, EngineConfig.defaults().sqPollIdleMillis());
            assertEquals(25, EngineConfig.defaults().withMaxInFlight(8).withFailFast(true).sqPollIdleMillis());
            for (String wrong : new String[]{"-1", "60001", "soon"}) {
                System.setProperty(EngineConfig.SQ_POLL_PROPERTY, wrong);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, EngineConfig::defaults);
                assertTrue(e.getMessage().contains(EngineConfig.SQ_POLL_PROPERTY)
                        && e.getMessage().contains("'" + wrong + "'"), e.getMessage());
            }
            assertThrows(IllegalArgumentException.class, () -> EngineConfig.defaults().withSqPollIdleMillis(-5));
        } finally {
            if (before == null) {
                System.clearProperty(EngineConfig.SQ_POLL_PROPERTY);
            } else {
                System.setProperty(EngineConfig.SQ_POLL_PROPERTY, before);
            }
        }
    }
}
