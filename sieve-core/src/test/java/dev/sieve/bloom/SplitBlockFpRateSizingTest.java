package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code fpRate} sizes a split-block filter as parquet-java's writer does: the bytes rounded up to
 * a power of two, so the rate is met, often far below the target, and {@code bitsPerKey} is the way
 * to an exact size.
 */
class SplitBlockFpRateSizingTest {

  @ParameterizedTest
  @CsvSource({"1000000, 0.01", "10000, 0.01", "300000, 0.001", "5000, 0.05"})
  void fpRateRoundsUpToAPowerOfTwoThatMeetsTheRate(long keys, double rate) {
    SplitBlockBloomFilter f =
        SplitBlockBloomFilter.builder().expectedKeys(keys).fpRate(rate).create();
    int bytes = (int) f.sizeInBytes();
    assertEquals(1, Integer.bitCount(bytes), bytes + " bytes: a power of two");
    assertEquals(SplitBlockBloomFilter.parquetNumBytes(keys, rate), bytes);
    double bitsPerKey = 8.0 * bytes / keys;
    double achieved = dev.sieve.math.SplitBlockMath.splitBlockFpRate(bitsPerKey);
    assertTrue(achieved <= rate, achieved + " at " + bitsPerKey + " bits/key");
  }

  @ParameterizedTest
  @CsvSource({"1000000, 0.01"})
  void oneMillionKeysAtOnePercentTakeSixteenPointEightBitsPerKey(long keys, double rate) {
    SplitBlockBloomFilter f =
        SplitBlockBloomFilter.builder().expectedKeys(keys).fpRate(rate).create();
    assertEquals(2 << 20, f.sizeInBytes());
    double achieved = dev.sieve.math.SplitBlockMath.splitBlockFpRate(8.0 * f.sizeInBytes() / keys);
    assertTrue(achieved > 0.0010 && achieved < 0.0012, Double.toString(achieved));
    SplitBlockBloomFilter exact =
        SplitBlockBloomFilter.builder().expectedKeys(keys).bitsPerKey(10).create();
    assertEquals(1_250_016, exact.sizeInBytes()); // 10 bits per key in whole 32-byte blocks
  }
}
