package dev.sieve.report;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.bloom.FastLocalBloomSizing;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.expand.ExpandableFilter;
import dev.sieve.registry.FilterType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.DoubleToLongFunction;

/**
 * The measurement behind the growth report's operations section: what {@link ExpandableFilter}
 * promises about its operations besides growth. Union: two unhinted filters of half the keys each,
 * merged, against one unhinted filter of all of them (memory, the merged rate, which is the sum of
 * both sides', and the recipe of building each side at {@code f / 2}). Remove and compact: a filter
 * of the keys with the first half removed (every remove of an added key must succeed, no remaining
 * key may answer absent), its rate and memory before and after {@code compact()}, unhinted and
 * sized. Sizing: the modelled rate of a filter built for its key count against the rate asked, over
 * a sweep of rates, through the builder's hint and through the path {@code sieve build --type
 * expandable --fp-rate f} takes (the registry's builder, built from the keys). The counts are
 * capped at {@value #MAX_KEYS} keys so that the section stays a small part of the report's time;
 * keys are random 64-bit hashes from fixed seeds, added through {@code addHash}, and the absent
 * queries are other random hashes.
 */
final class GrowthOperations {
  private GrowthOperations() {}

  /** The most keys the union and the remove measurements take. */
  static final long MAX_KEYS = 4_000_000;

  /** The key count the sizing measurements build for. */
  static final int SIZING_KEYS = 20_000;

  /** The rates of the sizing sweep: this many, log-spaced from 10^-4 to 0.2. */
  static final int SWEEP_RATES = 61;

  /** The seeds of the union's two sides, of the grown filter, of the absent queries. */
  static final long SEED_A = 11;

  static final long SEED_B = 12;
  static final long SEED_GROWN = 1;
  static final long SEED_ABSENT = 2;
  static final long SEED_SIZING = 3;

  /** A measured false-positive rate: false positives among absent queries. */
  record Fpr(long falsePositives, long queries) {
    double measured() {
      return (double) falsePositives / queries;
    }

    double lower() {
      return GrowthReport.wilson(falsePositives, queries, GrowthReport.Z999)[0];
    }

    double upper() {
      return GrowthReport.wilson(falsePositives, queries, GrowthReport.Z999)[1];
    }
  }

  /**
   * The union at rate {@code fpRate} of two unhinted filters of {@code keys / 2} keys each ({@code
   * sideA}, {@code sideB} their rates before it), against one unhinted filter of all {@code keys};
   * the recipe's union of two filters built at {@code fpRate / 2}. False negatives: keys added to
   * either side that the union answers absent.
   */
  record Union(
      double fpRate,
      long keys,
      long unionBits,
      long oneBits,
      Fpr union,
      double unionModel,
      Fpr sideA,
      Fpr sideB,
      long falseNegatives,
      Fpr recipe,
      double recipeModel,
      long recipeFalseNegatives) {
    double memoryRatio() {
      return (double) unionBits / oneBits;
    }

    double sidesSum() {
      return sideA.measured() + sideB.measured();
    }
  }

  /**
   * A filter grown to {@code keys} keys (a hint of {@code hint}, 0: none), the first half removed,
   * then compacted, then shrunk to fit: the removes that returned false, the rate and the false
   * negatives among the remaining keys after the removes, the compact and the re-fit, the bits
   * before and after each, and the bits of a blocked Bloom filter right-sized for the remaining
   * keys at the same rate.
   */
  record RemoveCompact(
      double fpRate,
      long hint,
      long keys,
      long removeFailures,
      Fpr afterRemove,
      long removedFalseNegatives,
      long bitsBefore,
      int halvings,
      long bitsAfter,
      Fpr afterCompact,
      long compactFalseNegatives,
      boolean refitted,
      long bitsShrunk,
      Fpr afterShrink,
      long shrinkFalseNegatives,
      long rightSizedBits) {
    long remaining() {
      return keys - keys / 2;
    }

    double ratioBefore() {
      return (double) bitsBefore / rightSizedBits;
    }

    double ratioAfter() {
      return (double) bitsAfter / rightSizedBits;
    }

    double ratioShrunk() {
      return (double) bitsShrunk / rightSizedBits;
    }

    String label() {
      return hint == 0 ? "unhinted" : "sized (expectedKeys " + String.format("%,d", hint) + ")";
    }
  }

  /** The sizing sweep's figure at one rate: the modelled rate at {@link #SIZING_KEYS} keys. */
  record Sizing(double fpRate, double model) {
    double ratio() {
      return model / fpRate;
    }
  }

  /**
   * At one of the report's rates, a filter built for {@link #SIZING_KEYS} keys through the hint and
   * through the CLI's path: modelled and measured rates.
   */
  record CliSizing(double fpRate, double hintedModel, Fpr hinted, double cliModel, Fpr cli) {
    double cliRatio() {
      return cliModel / fpRate;
    }
  }

  /** Everything the section shows. */
  record Figures(
      List<Union> unions, List<RemoveCompact> removes, List<Sizing> sweep, List<CliSizing> cli) {}

  /** {@return the count the union and the remove measurements take for a run to {@code maxN}} */
  static long keysFor(long maxN) {
    return Math.max(2, Math.min(maxN, MAX_KEYS));
  }

  /**
   * {@return the sweep's rates: {@link #SWEEP_RATES} log-spaced from 10^-4 to 0.2, and {@code
   * rates}}
   */
  static TreeSet<Double> sweepRates(List<Double> rates) {
    TreeSet<Double> sweep = new TreeSet<>(rates);
    for (int i = 0; i < SWEEP_RATES; i++) {
      sweep.add(1e-4 * Math.pow(2000, (double) i / (SWEEP_RATES - 1)));
    }
    return sweep;
  }

  /** Measures every operation at each of {@code rates}, with {@code queries.applyAsLong(f)}. */
  static Figures measure(List<Double> rates, long maxN, DoubleToLongFunction queries) {
    long n = keysFor(maxN);
    List<Union> unions = new ArrayList<>();
    List<RemoveCompact> removes = new ArrayList<>();
    List<CliSizing> cli = new ArrayList<>();
    for (double f : rates) {
      long q = queries.applyAsLong(f);
      unions.add(union(f, n, q));
      removes.add(removeAndCompact(f, 0, n, q));
      removes.add(removeAndCompact(f, n, n, q));
      cli.add(cliSizing(f, q));
    }
    List<Sizing> sweep = new ArrayList<>();
    for (double f : sweepRates(rates)) {
      ExpandableFilter sized = sized(f);
      sweep.add(new Sizing(f, sized.modelledFpRate()));
    }
    return new Figures(unions, removes, sweep, cli);
  }

  /** {@return {@code count} random hashes from {@code seed}} */
  static long[] keys(long seed, long count) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] keys = new long[Math.toIntExact(count)];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = random.nextLong();
    }
    return keys;
  }

  static ExpandableFilter grown(double f, long[]... parts) {
    ExpandableFilter filter = ExpandableFilter.builder().fpRate(f).create();
    for (long[] part : parts) {
      for (long k : part) {
        filter.addHash(k);
      }
    }
    return filter;
  }

  /** The union of two unhinted filters of half the keys each, and the recipe at {@code f / 2}. */
  static Union union(double f, long n, long queries) {
    long[] a = keys(SEED_A, n / 2);
    long[] b = keys(SEED_B, n - n / 2);
    long oneBits = grown(f, a, b).sizeInBits();
    ExpandableFilter left = grown(f, a);
    ExpandableFilter right = grown(f, b);
    Fpr sideA = fpr(left, queries);
    Fpr sideB = fpr(right, queries);
    left.union(right);
    ExpandableFilter recipe = grown(f / 2, a);
    recipe.union(grown(f / 2, b));
    return new Union(
        f,
        n,
        left.sizeInBits(),
        oneBits,
        fpr(left, queries),
        left.modelledFpRate(),
        sideA,
        sideB,
        absent(left, a, 0, a.length) + absent(left, b, 0, b.length),
        fpr(recipe, queries),
        recipe.modelledFpRate(),
        absent(recipe, a, 0, a.length) + absent(recipe, b, 0, b.length));
  }

  /**
   * A filter ({@code hint} 0: unhinted, else {@code expectedKeys(hint)}) of {@code n} keys, the
   * first half removed, then compacted, then shrunk to fit.
   */
  static RemoveCompact removeAndCompact(double f, long hint, long n, long queries) {
    long[] keys = keys(SEED_GROWN, n);
    ExpandableFilter filter =
        hint == 0
            ? ExpandableFilter.builder().fpRate(f).create()
            : ExpandableFilter.builder().fpRate(f).expectedKeys(hint).create();
    for (long k : keys) {
      filter.addHash(k);
    }
    int half = keys.length / 2;
    long failures = 0;
    for (int i = 0; i < half; i++) {
      if (!filter.removeHash(keys[i])) {
        failures++;
      }
    }
    Fpr afterRemove = fpr(filter, queries);
    long removedFalseNegatives = absent(filter, keys, half, keys.length);
    long bitsBefore = filter.sizeInBits();
    int halvings = filter.compact();
    long bitsAfter = filter.sizeInBits();
    Fpr afterCompact = fpr(filter, queries);
    long compactFalseNegatives = absent(filter, keys, half, keys.length);
    boolean refitted = filter.shrinkToFit();
    long remaining = keys.length - half;
    return new RemoveCompact(
        f,
        hint,
        n,
        failures,
        afterRemove,
        removedFalseNegatives,
        bitsBefore,
        halvings,
        bitsAfter,
        afterCompact,
        compactFalseNegatives,
        refitted,
        filter.sizeInBits(),
        fpr(filter, queries),
        absent(filter, keys, half, keys.length),
        rightSizedBits(f, remaining));
  }

  /**
   * {@return the bits of a blocked Bloom filter right-sized for {@code n} keys at rate {@code f}}
   */
  static long rightSizedBits(double f, long n) {
    return FastLocalBloomSizing.rocksDbDataBytes(n, ScalableBloomFilter.stageMillibitsPerKey(f))
        * 8;
  }

  /** {@return a filter built with {@code expectedKeys(SIZING_KEYS)}, filled with that many keys} */
  static ExpandableFilter sized(double f) {
    ExpandableFilter filter =
        ExpandableFilter.builder().fpRate(f).expectedKeys(SIZING_KEYS).create();
    for (long k : keys(SEED_SIZING, SIZING_KEYS)) {
      filter.addHash(k);
    }
    return filter;
  }

  /**
   * {@return what {@code sieve build --type expandable --fp-rate f} builds over {@link
   * #SIZING_KEYS} keys} The CLI takes the registry type's builder, sets the rate, and builds from
   * the keys ({@code FilterBuilder.build}); here over 8-byte keys.
   */
  static Filter cliBuilt(double f) {
    FilterBuilder<? extends Filter> builder = FilterType.forName("expandable").builder().fpRate(f);
    List<byte[]> keys = new ArrayList<>();
    for (long k : keys(SEED_SIZING, SIZING_KEYS)) {
      byte[] key = new byte[8];
      for (int i = 0; i < 8; i++) {
        key[i] = (byte) (k >>> (8 * i));
      }
      keys.add(key);
    }
    return builder.build(keys);
  }

  static CliSizing cliSizing(double f, long queries) {
    ExpandableFilter hinted = sized(f);
    Filter cli = cliBuilt(f);
    return new CliSizing(
        f, hinted.modelledFpRate(), fpr(hinted, queries), cli.modelledFpRate(), fpr(cli, queries));
  }

  /** {@return the false positives of {@code filter} among {@code queries} random absent hashes} */
  static Fpr fpr(Filter filter, long queries) {
    SplittableRandom absent = new SplittableRandom(SEED_ABSENT);
    long fp = 0;
    for (long q = 0; q < queries; q++) {
      if (filter.mayContainHash(absent.nextLong())) {
        fp++;
      }
    }
    return new Fpr(fp, queries);
  }

  /** {@return how many of {@code keys[from, to)}, all added, {@code filter} answers absent} */
  static long absent(Filter filter, long[] keys, int from, int to) {
    long count = 0;
    for (int i = from; i < to; i++) {
      if (!filter.mayContainHash(keys[i])) {
        count++;
      }
    }
    return count;
  }

  /** {@return a rate as a percentage with four decimals} */
  static String pct(double x) {
    return String.format(Locale.ROOT, "%.4f%%", 100 * x);
  }

  /** {@return the 99.9% Wilson interval of {@code r} in percent} */
  static String interval(Fpr r) {
    return String.format(Locale.ROOT, "[%.4f%%, %.4f%%]", 100 * r.lower(), 100 * r.upper());
  }
}
