package dev.sieve.bench;

import dev.sieve.range.GrafiteFilter;
import dev.sieve.range.PrefixBloomRangeFilter;
import dev.sieve.range.RangeFilter;
import java.util.SplittableRandom;

/**
 * The range section's inputs, shared by the report's FPR measurement, its in-process timer and the
 * JMH benchmark that times it ({@code RangeCellsBenchmark}), so that all three see the same keys,
 * filters and ranges: {@code n} uniform 64-bit keys of a seed, a {@link GrafiteFilter} built for
 * each range length at {@code B} bits per key, the {@link PrefixBloomRangeFilter} baseline given
 * Grafite's memory, and the two workloads' ranges: uniform ({@code lo} uniform) and correlated
 * ({@code lo = key + 1 + gap}, gap uniform in [0, 16): the range starts just after a key, as an
 * adversarial workload's do).
 */
public final class RangeCells {
  private RangeCells() {}

  /** The filter a cell measures. */
  public enum Structure {
    GRAFITE("grafite"),
    PREFIX_BLOOM("prefix-bloom");

    private final String label;

    Structure(String label) {
      this.label = label;
    }

    /** {@return "grafite" or "prefix-bloom"} */
    public String label() {
      return label;
    }

    /** The structure of a label. */
    public static Structure of(String label) {
      for (Structure s : values()) {
        if (s.label.equals(label)) {
          return s;
        }
      }
      throw new IllegalArgumentException(
          "structure must be grafite or prefix-bloom, got '" + label + "'");
    }
  }

  /** How a range's low end is drawn. */
  public enum Workload {
    UNIFORM,
    CORRELATED
  }

  /** The gaps after a key of the correlated workload: {@code lo = key + 1 + [0, 16)}. */
  public static final int CORRELATED_GAPS = 16;

  /** The section's keys: {@code n} uniform 64-bit values of {@code seed}. */
  public static long[] keys(int n, long seed) {
    if (n < 1) {
      throw new IllegalArgumentException("range keys must be at least 1, got " + n);
    }
    return new SplittableRandom(seed).longs(n).toArray();
  }

  /** Grafite for ranges up to {@code length} at {@code bitsPerKey}. */
  public static GrafiteFilter grafite(long[] keys, long length, double bitsPerKey) {
    return GrafiteFilter.builder()
        .maxRangeLength(length)
        .bitsPerKey(bitsPerKey)
        .buildFromKeys(keys);
  }

  /** Grafite's bits per key in memory (the stored data and the select index built at load). */
  public static double memoryBitsPerKey(GrafiteFilter g, int n) {
    return (double) g.memoryBits() / n;
  }

  /** The prefix-Bloom baseline for ranges up to {@code length} at {@code bitsPerKey}. */
  public static PrefixBloomRangeFilter prefixBloom(long[] keys, long length, double bitsPerKey) {
    return PrefixBloomRangeFilter.builder()
        .maxRangeLength(length)
        .bitsPerKey(bitsPerKey)
        .buildFromKeys(keys);
  }

  /**
   * The low end of one range of {@code w}: uniform, or just after a random key. The caller checks
   * that {@code lo + length - 1} does not wrap past {@code 2^64 − 1}.
   */
  public static long low(Workload w, long[] keys, SplittableRandom rnd) {
    return w == Workload.UNIFORM
        ? rnd.nextLong()
        : keys[rnd.nextInt(keys.length)] + 1 + rnd.nextInt(CORRELATED_GAPS);
  }

  /**
   * A stream of {@code count} ranges of {@code length} values for timing: {@code [lo[i], hi[i]]}; a
   * range that would wrap past {@code 2^64 − 1} ends there instead. Nearly every range is empty
   * (with {@code n} uniform keys a range of {@code ℓ} values holds one with probability about
   * {@code n·ℓ/2^64}), so the times are those of the ranges the FPR counts.
   *
   * @return {lo, hi}
   */
  public static long[][] stream(Workload w, long[] keys, long length, int count, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] lo = new long[count];
    long[] hi = new long[count];
    for (int i = 0; i < count; i++) {
      long l = low(w, keys, rnd);
      long h = l + length - 1;
      lo[i] = l;
      hi[i] = Long.compareUnsigned(l, h) > 0 ? -1L : h;
    }
    return new long[][] {lo, hi};
  }

  /** The seed of a cell's timing stream (fixed per length and workload). */
  public static long streamSeed(long seed, long length, Workload w) {
    return seed * 0x9E37_79B9_7F4A_7C15L + length * 31 + w.ordinal();
  }

  /**
   * Answers the ranges {@code [lo[i], hi[i]]} for {@code i} in {@code [from, from + count)}, modulo
   * the stream's length (a power of two), and returns how many may hold a key (kept alive by the
   * caller).
   */
  public static int query(RangeFilter f, long[] lo, long[] hi, int from, int count) {
    int mask = lo.length - 1;
    int hits = 0;
    for (int i = 0; i < count; i++) {
      int j = (from + i) & mask;
      hits += f.mayContainRange(lo[j], hi[j]) ? 1 : 0;
    }
    return hits;
  }
}
