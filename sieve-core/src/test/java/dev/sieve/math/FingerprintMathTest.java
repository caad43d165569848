package dev.sieve.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The Xor, Binary Fuse and Cuckoo models of {@link FingerprintMath}, against worked values. */
class FingerprintMathTest {

  @Test
  void xorFingerprintRates() {
    assertEquals(1.0 / 256, FingerprintMath.xorFingerprintFpRate(8), 0);
    assertEquals(1.0 / 65536, FingerprintMath.xorFingerprintFpRate(16), 0);
    assertEquals(0.0, FingerprintMath.xorFilterFpRate(0, 8));
    // 10^6 keys: the 64-bit hash adds 10^6 / 2^64 ≈ 5.4e-14
    assertEquals(1.0 / 256 + 5.42e-14, FingerprintMath.xorFilterFpRate(1_000_000, 8), 1e-15);
  }

  @Test
  void xorAndFuseSizing() {
    assertEquals(1_230_032, FingerprintMath.xorFilterSlots(1_000_000));
    assertEquals(32, FingerprintMath.xorFilterSlots(0));
    // 3-wise: 0.875 + 0.25 · ln(10^6) / ln(1000) = 0.875 + 0.25 · 2 = 1.375
    assertEquals(1.375, FingerprintMath.binaryFuseSizeFactor(3, 1000), 1e-12);
    assertEquals(1.125, FingerprintMath.binaryFuseSizeFactor(3, 10_000_000), 0);
    // 4-wise: 0.77 + 0.305 · ln(600000) / ln(600000) = 1.075, and the floor 1.075 beyond
    assertEquals(1.075, FingerprintMath.binaryFuseSizeFactor(4, 600_000), 1e-12);
    assertEquals(1.075, FingerprintMath.binaryFuseSizeFactor(4, 100_000_000), 0);
    // segment length: 2^floor(ln(10^7)/ln(3.33) + 2.25) = 2^floor(15.65) = 2^15
    assertEquals(1 << 15, FingerprintMath.binaryFuseSegmentLength(3, 10_000_000));
    // 4-wise: 2^floor(ln(10^7)/ln(2.91) - 0.5) = 2^floor(14.59) = 2^14
    assertEquals(1 << 14, FingerprintMath.binaryFuseSegmentLength(4, 10_000_000));
    assertEquals(1 << 18, FingerprintMath.binaryFuseSegmentLength(3, 2_000_000_000L));
    assertEquals(4, FingerprintMath.binaryFuseSegmentLength(3, 1));
    assertEquals(4, FingerprintMath.binaryFuseSegmentLength(4, 5));
    assertThrows(
        IllegalArgumentException.class, () -> FingerprintMath.binaryFuseSizeFactor(5, 100));
    assertThrows(
        IllegalArgumentException.class, () -> FingerprintMath.binaryFuseSegmentLength(2, 100));
  }

  @Test
  void cuckooRates() {
    // f = 12, b = 4, α = 0.95: 1 - (1 - 1/4095)^7.6 = 0.18544%
    assertEquals(
        1 - Math.pow(1 - 1.0 / 4095, 7.6), FingerprintMath.cuckooFpRate(12, 4, 0.95), 1e-15);
    assertEquals(0.0018544, FingerprintMath.cuckooFpRate(12, 4, 0.95), 1e-7);
    // the first-order approximation 2bα / (2^f - 1) is close for small rates
    assertEquals(8 * 0.95 / 65535, FingerprintMath.cuckooFpRate(16, 4, 0.95), 1e-8);
    assertEquals(0.0, FingerprintMath.cuckooFpRate(8, 4, 0.0), 0);
    assertEquals(0.0, FingerprintMath.cuckooFilterFpRate(0, 400, 8, 4));
    assertEquals(
        FingerprintMath.cuckooFpRate(8, 4, 0.5),
        FingerprintMath.cuckooFilterFpRate(200, 400, 8, 4),
        1e-15);
  }
}
