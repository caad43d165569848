package dev.sieve.range;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RangeMathTest {
  @Test
  void boundAtBitsPerKey() {
    assertEquals(1.0 / (1 << 14), RangeMath.grafiteFpBound(1, 16), 0);
    assertEquals(1024.0 / (1 << 14), RangeMath.grafiteFpBound(1024, 16), 0);
    assertEquals(1.0, RangeMath.grafiteFpBound(1L << 20, 16), 0);
    assertThrows(IllegalArgumentException.class, () -> RangeMath.grafiteFpBound(0, 16));
    assertThrows(IllegalArgumentException.class, () -> RangeMath.grafiteFpBound(1, Double.NaN));
  }

  @Test
  void boundOfACodeRangeMatchesTheBitsForm() {
    // r = n·L/ε with L = 1024, ε = 1/16: r/n = 2^14, so B = 16 and both forms agree
    long n = 1000;
    double r = RangeMath.grafiteCodeRange(n, 1024, 1.0 / 16);
    assertEquals(n * 16384.0, r, 0);
    for (long len : new long[] {1, 16, 1024}) {
      assertEquals(RangeMath.grafiteFpBound(len, 16), RangeMath.grafiteFpBound(len, n, r), 1e-15);
    }
    assertThrows(IllegalArgumentException.class, () -> RangeMath.grafiteFpBound(1, 1, 0.0));
  }
}
