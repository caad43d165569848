package dev.sieve.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class WorkloadTest {
  @Test
  void keysAreDistinctAndDeterministic() {
    Workload a = Workload.create(10_000, 7);
    Workload b = Workload.create(10_000, 7);
    assertArrayEquals(a.keys(), b.keys());
    assertEquals(10_000, Arrays.stream(a.keys()).distinct().count());
    assertFalse(Arrays.equals(a.keys(), Workload.create(10_000, 8).keys()));
  }

  @Test
  void presentQueriesArePresentAndAbsentQueriesAbsent() {
    Workload w = Workload.create(2_000, 3);
    for (long k : w.presentQueries(5_000)) {
      assertTrue(w.contains(k));
    }
    for (long k : w.absentQueries(5_000)) {
      assertFalse(w.contains(k));
    }
    assertThrows(IllegalArgumentException.class, () -> Workload.create(0, 1));
  }
}
