package dev.sieve.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The worst-insert helper's bookkeeping (not its timings, which depend on the machine). */
class GrowthInsertLatencyTest {
  @Test
  void percentileIsTheSmallestValueWithThatShareAtOrBelow() {
    int[] sorted = new int[10_000];
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] = i + 1;
    }
    assertEquals(9_999, GrowthInsertLatency.percentile(sorted, 0.9999));
    assertEquals(9_990, GrowthInsertLatency.percentile(sorted, 0.999));
    assertEquals(5_000, GrowthInsertLatency.percentile(sorted, 0.5));
    assertEquals(7, GrowthInsertLatency.percentile(new int[] {7}, 0.9999));
  }

  @Test
  void countsGrowthStepsAndOrdersItsFigures() {
    List<GrowthInsertLatency.Result> results =
        GrowthInsertLatency.measure(
            List.of("expandable", "expandable-hinted", "scalable", "rightsized"),
            5_000,
            0.01,
            0,
            0);
    assertEquals(4, results.size());
    for (GrowthInsertLatency.Result r : results) {
      assertTrue(r.maxAt() >= 0 && r.maxAt() < 5_000, r.line());
      assertEquals(Math.max(r.maxGrowthNs(), r.maxPlainNs()), r.maxNs(), r.line());
      assertTrue(r.maxNs() >= r.p9999Ns() && r.p9999Ns() >= r.p999Ns(), r.line());
      assertTrue(r.p999Ns() >= r.p50Ns() && r.amortizedNs() > 0, r.line());
      boolean grows = r.structure().equals("expandable") || r.structure().equals("scalable");
      // from its smallest table (64 slots) the expandable filter doubles 7 times to hold 5,000
      // keys; the scalable one opens stages past its guess of 1,000; hinted and right-sized: never
      assertEquals(grows, r.growthSteps() > 0, r.line());
    }
    assertTrue(results.get(0).growthSteps() >= 6, results.get(0).line());
    assertThrows(
        IllegalArgumentException.class,
        () -> GrowthInsertLatency.measure(List.of("expandable"), 0, 0.01, 0, 0));
    assertThrows(
        IllegalArgumentException.class,
        () -> GrowthInsertLatency.measure(List.of("bogus"), 10, 0.01, 0, 0));
  }
}
