package dev.sieve.range;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Grafite's measured false-positive rate against its bound {@code ℓ/2^(B−2)} ({@link
 * RangeMath#grafiteFpBound(long, double)}) for range lengths 1, 16 and 2^10, on three workloads:
 * uniform keys and uniform ranges; uniform keys and correlated ranges that start just after a key
 * ({@code lo = key + 1 + gap}, gap in [0, 8)); and clustered keys (all in {@code [0, 2^29)}, about
 * 2 700 values apart) with correlated ranges, the adversarial case where a prefix filter fails.
 *
 * <p>The filter holds 200 000 keys and is sized so the bound is {@code 2^−7} (B = 9 + log2 ℓ). The
 * uniform workload asks 200 000 empty ranges; the correlated ones ask one range after each key
 * (those that are empty, at least half of them), never two after the same key: the ranges after one
 * key are false positives together or not at all (the key's code and its neighbours' decide), so
 * repeating keys would make the indicators dependent and the bound below wrong. The false positives
 * {@code X} of {@code Q} ranges are then a sum of (nearly) independent indicators of mean at most
 * {@code p}, so {@code X ≤ Q·p + 6·sqrt(Q·p) + 6} fails for a correct filter with probability below
 * 10^−8 (a Chernoff bound; deterministic seeds make the outcome fixed). The uniform workload must
 * also reach at least a third of the bound: there the rate is about {@code n·ℓ/r}, so a much lower
 * rate would mean the filter answers from something else than its codes (or spends more bits).
 */
class GrafiteFpRateTest {
  private static final int N = 200_000;
  private static final int QUERIES = 200_000;

  @ParameterizedTest(name = "ℓ={0} {1}")
  @CsvSource({
    "1, UNIFORM", "16, UNIFORM", "1024, UNIFORM",
    "1, CORRELATED", "16, CORRELATED", "1024, CORRELATED",
    "1, CLUSTERED", "16, CLUSTERED", "1024, CLUSTERED"
  })
  void measuredRateWithinBound(long len, String workload) {
    SplittableRandom rnd = new SplittableRandom(len * 31 + workload.hashCode());
    boolean clustered = workload.equals("CLUSTERED");
    long[] keys = new long[N];
    for (int i = 0; i < N; i++) {
      keys[i] = clustered ? rnd.nextLong(1L << 29) : rnd.nextLong();
    }
    double bits = 9 + Math.log(len) / Math.log(2);
    GrafiteFilter f =
        GrafiteFilter.builder().maxRangeLength(len).bitsPerKey(bits).seed(len).buildFromKeys(keys);
    double bound = RangeMath.grafiteFpBound(len, bits);
    long[] sorted = Arrays.stream(keys).map(RangeFilter::signedKey).sorted().toArray();
    boolean uniform = workload.equals("UNIFORM");
    int asked = 0;
    int fp = 0;
    for (int i = 0; uniform ? asked < QUERIES : i < N; i++) {
      long lo = uniform ? rnd.nextLong() : keys[i] + 1 + rnd.nextInt(8); // each key once
      long hi = lo + len - 1;
      if (Long.compareUnsigned(lo, hi) > 0 || !empty(sorted, lo, hi)) {
        continue;
      }
      asked++;
      if (f.mayContainRange(lo, hi)) {
        fp++;
      }
    }
    assertTrue(asked >= QUERIES / 2, "only " + asked + " empty ranges");
    double mean = asked * bound;
    double limit = mean + 6 * Math.sqrt(mean) + 6;
    String msg = "ℓ=" + len + " " + workload + ": " + fp + " of " + asked + ", bound " + bound;
    assertTrue(fp <= limit, msg);
    assertTrue(f.fpBound(len) <= bound * 1.0001, msg + ", filter's bound " + f.fpBound(len));
    if (workload.equals("UNIFORM")) {
      assertTrue(fp >= mean / 3, msg);
    }
  }

  /** Whether no key (in {@code sorted}, signed-mapped) lies in the unsigned range. */
  static boolean empty(long[] sortedSigned, long lo, long hi) {
    int i = Arrays.binarySearch(sortedSigned, RangeFilter.signedKey(lo));
    if (i >= 0) {
      return false;
    }
    int ins = -i - 1;
    return ins == sortedSigned.length || sortedSigned[ins] > RangeFilter.signedKey(hi);
  }
}
