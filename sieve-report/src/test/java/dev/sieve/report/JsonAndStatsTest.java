package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bench.Family;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonAndStatsTest {
  @Test
  void jsonEscapesAndWritesNonFiniteAsNull() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("s", "a\"b\\c\nd\u0001");
    m.put("nan", Double.NaN);
    m.put("inf", Double.POSITIVE_INFINITY);
    m.put("x", 1.5);
    m.put("i", 3.0);
    m.put("list", List.of(1, true, Family.PEER));
    m.put("empty", Map.of());
    String json = Json.write(m).replaceAll("\\s+", "");
    assertEquals(
        "{\"s\":\"a\\\"b\\\\c\\nd\\u0001\",\"nan\":null,\"inf\":null,\"x\":1.5,\"i\":3,"
            + "\"list\":[1,true,\"peer\"],\"empty\":{}}",
        json);
  }

  /**
   * Wilson 95% interval for 10 of 1000, by hand: centre p + z²/2n = 0.011921, half-width
   * z·sqrt(p(1-p)/n + z²/4n²) = 0.006459, both over 1 + z²/n = 1.0038415: [0.5441%, 1.8309%].
   */
  @Test
  void wilsonInterval() {
    assertEquals(0.005441, Stats.wilsonLow(10, 1000), 2e-6);
    assertEquals(0.018309, Stats.wilsonHigh(10, 1000), 2e-6);
    assertEquals(0.0, Stats.wilsonLow(0, 1000));
    assertTrue(Stats.wilsonHigh(0, 1000) > 0.003 && Stats.wilsonHigh(0, 1000) < 0.004);
    assertTrue(Double.isNaN(Stats.wilsonLow(0, 0)));
  }
}
