package dev.sieve.report;

import static dev.sieve.report.Acceptance.FF_BLOCKED;
import static dev.sieve.report.Names.BLOCKED;
import static dev.sieve.report.Names.FAST_HASH;

import dev.sieve.bench.Family;
import dev.sieve.bench.SieveAdapters;
import dev.sieve.report.Acceptance.Check;
import dev.sieve.report.Acceptance.Metric;
import dev.sieve.report.Acceptance.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The fastest of Sieve's mutable Bloom filters that run without any JVM flag, single-key and batch,
 * ≤ 1.0× FastFilter's BlockedBloom (positive and negative) at equal or lower FPR, at each of 10^4,
 * 10^6, 10^7 and 10^8 keys present in the run: a user who cannot add the Vector module still gets a
 * Bloom filter as fast as FastFilter's.
 */
final class AcceptanceFlagless {
  private AcceptanceFlagless() {}

  /** Sieve's two-word blocked Bloom, which has no SIMD path: flagless in every run. */
  static final String TWO_WORD = "sieve-two-word-bloom";

  /** The two-word Bloom at two bits per word (a quarter bit per key more; see SieveAdapters). */
  static final String TWO_WORD_J2 = TWO_WORD + "-j2";

  /** The split-block Bloom, flagless only where the run's SIMD path did not run. */
  static final String SPLIT_BLOCK = "sieve-split-block-bloom";

  /** The key counts the goal is held at: in cache up to 10^6, then in memory. */
  static final int[] NS = {10_000, 1_000_000, 10_000_000, 100_000_000};

  /**
   * The base names of Sieve's mutable Bloom filters that run without any JVM flag: the two-word
   * Bloom (as the builder sizes it, and at two bits per word) always; the split-block and
   * RocksDB-layout blocked Bloom where the run's SIMD path did not run (their scalar probes are
   * then what was measured).
   */
  static List<String> flaglessMutableBlooms(boolean simdPath) {
    return simdPath
        ? List.of(TWO_WORD, TWO_WORD_J2)
        : List.of(TWO_WORD, TWO_WORD_J2, SPLIT_BLOCK, BLOCKED);
  }

  /**
   * The goal for single-key and batch lookups at each n of {@link #NS} in the run. The fastest is
   * the candidate row ({@link #flaglessMutableBlooms}, as queried or with the fast long-key hash)
   * with the lowest worse-of-the-two ratio whose measured FPR is not above FastFilter's (their
   * confidence intervals overlap or it is lower).
   */
  static List<Check> checks(List<Row> rows, boolean simdPath) {
    List<Check> checks = new ArrayList<>();
    for (boolean batch : new boolean[] {false, true}) {
      String kind = batch ? "batch" : "single";
      String what =
          "fastest flagless mutable Sieve Bloom "
              + (batch ? "batch" : "single-key")
              + " (positive and negative) ≤ 1.0× FastFilter BlockedBloom at ≤ its FPR";
      boolean anyN = false;
      for (int n : NS) {
        if (rows.stream().noneMatch(r -> r.n == n)) {
          continue;
        }
        anyN = true;
        String name = name(kind, Names.nLabel(n));
        List<Check> candidates = new ArrayList<>();
        for (Row r : rows) {
          if (r.n != n
              || r.family != Family.SIEVE
              || !isFlaglessCandidate(r.name, batch, simdPath)) {
            continue;
          }
          Optional<Row> ref = Names.find(rows, FF_BLOCKED, n, r.bitsPerKeySetting);
          if (ref.isPresent()
              && r.hasFpr()
              && ref.get().hasFpr()
              && r.measuredFprLow() > ref.get().measuredFprHigh()) {
            continue; // a higher rate than FastFilter's: not "at equal or lower FPR"
          }
          candidates.add(
              Acceptance.compare(
                  name, what, rows, n, r.name, FF_BLOCKED, List.of(Metric.POS, Metric.NEG), 1.0));
        }
        Optional<Check> best =
            candidates.stream()
                .filter(c -> c.status() == Status.PASS || c.status() == Status.MISS)
                .min(Comparator.comparingDouble(Check::value));
        if (best.isPresent()) {
          checks.add(best.get());
        } else if (!candidates.isEmpty()) {
          checks.add(candidates.get(0));
        } else {
          checks.add(
              Acceptance.notRun(
                  name,
                  what,
                  n,
                  "no flagless mutable Sieve Bloom "
                      + (batch ? "batch " : "")
                      + "row at or under FastFilter's FPR in this run ("
                      + String.join(", ", flaglessMutableBlooms(simdPath))
                      + ")"));
        }
      }
      if (!anyN) {
        checks.add(
            Acceptance.notRun(
                name(kind, "10^4 to 10^8"),
                what,
                Acceptance.N6,
                "none of 10^4, 10^6, 10^7, 10^8 in this run"));
      }
    }
    return checks;
  }

  /** The goal's name at {@code n}: the flagless Bloom's single or batch lookup vs FastFilter. */
  static String name(String kind, String n) {
    return "flagless mutable Bloom " + kind + " lookup vs FastFilter BlockedBloom, n=" + n;
  }

  /**
   * Whether {@code name} is a row of a flagless mutable Bloom: the filter as queried or its
   * fast-hash row ({@code batch} false), or its batch or fast-hash batch row ({@code batch} true).
   */
  static boolean isFlaglessCandidate(String name, boolean batch, boolean simdPath) {
    for (String base : flaglessMutableBlooms(simdPath)) {
      String fast = base + "-" + FAST_HASH;
      String suffix = batch ? SieveAdapters.BATCH_SUFFIX : "";
      if (name.equals(base + suffix) || name.equals(fast + suffix)) {
        return true;
      }
    }
    return false;
  }
}
