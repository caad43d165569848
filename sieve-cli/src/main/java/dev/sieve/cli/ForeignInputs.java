package dev.sieve.cli;

import dev.sieve.KeyFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.interop.CassandraBloomFilter;
import dev.sieve.interop.ForeignBloomFilter;
import dev.sieve.interop.ForeignFormat;
import dev.sieve.interop.GuavaBloomFilter;
import dev.sieve.interop.SparkBloomFilter;
import dev.sieve.math.BloomMath;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code inspect} of another system's Bloom filter: what its owner does not print. None of these
 * forms records its key count or the rate it was sized for, so the report gives the rate at the
 * actual fill ({@code (bits set / m)^k}, exact for a random absent key), the key count estimated
 * from the bits, the rate the probe count was chosen for ({@code 2^-k}: both owners pick {@code k =
 * round(ln 2 · m/n)}, i.e. {@code round(-log2 p)}) unless {@code --fp-rate} says what was asked,
 * and what a Sieve filter for the estimated keys at that rate would cost.
 */
final class ForeignInputs {
  private ForeignInputs() {}

  /** Saturated: more than this fraction of the bits set (the rate then tells little apart). */
  static final double SATURATED_FILL = 0.9;

  /**
   * The form of a filter read from a container, or {@code null} if it is not foreign (of the two
   * Cassandra layouts, which share a type, the current one).
   */
  static ForeignFormat formOf(KeyFilter f) {
    dev.sieve.registry.FilterType t = dev.sieve.registry.FilterType.forClass(f.getClass());
    for (ForeignFormat form : ForeignFormat.values()) {
      if (t != null && form.type() == t) {
        return form;
      }
    }
    return null;
  }

  static Map<String, String> describe(
      ForeignFormat format, ForeignBloomFilter f, long fileBytes, double askedFpRate) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("input_kind", SstCliSupport.jsonString(format.formatName() + " bloom filter"));
    if (f instanceof GuavaBloomFilter g) {
      m.put("strategy", SstCliSupport.jsonString(g.strategy().toString()));
    } else if (f instanceof dev.sieve.interop.DataSketchesBloomFilter d) {
      m.put("seed", Long.toString(d.seed()));
    } else if (f instanceof CassandraBloomFilter c) {
      m.put("layout", SstCliSupport.jsonString(c.layout().toString()));
    } else if (f instanceof SparkBloomFilter s) {
      m.put("version", SstCliSupport.jsonString(s.version().toString()));
      m.put("seed", Integer.toString(s.seed()));
    }
    m.put("file_size", Long.toString(fileBytes));
    m.put("filter_bits", Long.toString(f.sizeInBits()));
    m.put("num_probes", Integer.toString(f.numProbes()));
    long set = f.bitsSet();
    double fill = (double) set / f.sizeInBits();
    m.put("bits_set", Long.toString(set));
    m.put("fill", SstCliSupport.jsonNumber(fill));
    m.put("saturated", Boolean.toString(fill > SATURATED_FILL));
    double n = f.approximateElementCount();
    m.put("estimated_keys", SstCliSupport.jsonNumber(Math.rint(n)));
    m.put("bits_per_key", SstCliSupport.jsonNumber(n >= 1 ? f.sizeInBits() / n : Double.NaN));
    double atFill = f.expectedFpRate();
    m.put("fpr_at_fill", SstCliSupport.jsonNumber(atFill));
    double sizedFor;
    String source;
    double[] cassandra =
        askedFpRate > 0 || !(f instanceof CassandraBloomFilter) ? null : cassandraSizedFor(f, n);
    if (askedFpRate > 0) {
      sizedFor = askedFpRate;
      source = "--fp-rate";
    } else if (cassandra != null) {
      sizedFor = cassandra[0];
      source = cassandraSource(f, n, cassandra);
      m.put("sized_for_fpr_low", SstCliSupport.jsonNumber(cassandra[0]));
      m.put("sized_for_fpr_high", SstCliSupport.jsonNumber(cassandra[1]));
    } else {
      sizedFor = Math.pow(2, -f.numProbes()); // k = round(-log2 p)
      source =
          f instanceof CassandraBloomFilter
              ? "2^-k: k fits no row of Cassandra's BloomCalculations table near this filter's"
                  + " bits per key (the form records no rate)"
              : "2^-k (the form records no rate)";
    }
    m.put("sized_for_fpr", SstCliSupport.jsonNumber(sizedFor));
    m.put("sized_for_source", SstCliSupport.jsonString(source));
    if (n >= 1 && Double.isFinite(n)) {
      m.put("designed_keys", SstCliSupport.jsonNumber(Math.rint(designedKeys(f, askedFpRate))));
      long keys = Math.max(1, Math.round(n));
      long sieveBytes = sieveBloomBytes(keys, sizedFor);
      m.put("sieve_standard_bloom_bytes", Long.toString(sieveBytes));
      m.put("information_floor_bytes", SstCliSupport.jsonNumber(floorBytes(keys, sizedFor)));
      m.put(
          "advice",
          SstCliSupport.jsonString(advice(atFill, sizedFor, keys, sieveBytes, fileBytes)));
    }
    return m;
  }

  /**
   * The key count the filter was sized for. Guava, Spark and DataSketches size {@code m = -n ln p /
   * (ln 2)^2}: under {@code --fp-rate p} that is solved for {@code n}. Cassandra sizes {@code m =
   * n·b + 20} with {@code b} its table's bits per key for {@code p}: solved for {@code n}.
   * Otherwise (no rate, or one Cassandra refuses) {@code n = m ln 2 / k}, from the probe count
   * chosen as {@code round(ln 2 · m/n)}.
   */
  static double designedKeys(ForeignBloomFilter f, double askedFpRate) {
    if (askedFpRate > 0 && !(f instanceof CassandraBloomFilter)) {
      return f.sizeInBits() * BloomMath.LN2 * BloomMath.LN2 / -Math.log(askedFpRate);
    }
    int b = askedFpRate > 0 ? cassandraBitsPerKey(askedFpRate) : 0;
    return b > 0 ? (f.sizeInBits() - 20.0) / b : f.sizeInBits() * BloomMath.LN2 / f.numProbes();
  }

  /**
   * Cassandra's bits per key for {@code rate}, or 0 if it refuses the rate: a filter for 64 keys
   * has {@code 64·b + 20} bits rounded up to whole words, {@code 64·(b + 1)}.
   */
  private static int cassandraBitsPerKey(double rate) {
    try {
      return (int) (CassandraBloomFilter.create(64, rate).sizeInBits() / 64 - 1);
    } catch (IllegalArgumentException e) {
      return 0;
    }
  }

  /**
   * The rate a Cassandra {@code Filter.db} was sized for: Cassandra picks {@code (k, bits per key
   * b)} from its {@code BloomCalculations} table ({@link CassandraBloomFilter#fpChanceRange}), and
   * the file gives {@code k} and {@code m = n·b + 20} rounded up to whole words; {@code b} is
   * estimated as {@code (m - 20) / n} with {@code n} the key count estimated from the bits. Rows
   * {@code b} within 0.75 of that estimate whose table gives this {@code k} are the candidates
   * (more than one when the estimate falls between rows: the union of their ranges is reported); if
   * none is near, every row that gives this {@code k}. A filter holding fewer keys than it was
   * sized for overstates {@code b}.
   *
   * @return {@code {low, high, bLow, bHigh}}: the rates {@code [low, high)} and the rows, or {@code
   *     null} when no row of the table gives {@code k}
   */
  static double[] cassandraSizedFor(ForeignBloomFilter f, double n) {
    double bEst = n >= 1 ? (f.sizeInBits() - 20.0) / n : Double.NaN;
    double[] near = cassandraRange(f.numProbes(), bEst, 0.75);
    return near != null ? near : cassandraRange(f.numProbes(), bEst, Double.POSITIVE_INFINITY);
  }

  private static double[] cassandraRange(int k, double bEst, double slack) {
    double low = Double.NaN;
    double high = Double.NaN;
    int bLow = 0;
    int bHigh = 0;
    for (int b = 1; b <= 20; b++) {
      double[] r = CassandraBloomFilter.fpChanceRange(b, k);
      boolean near = slack == Double.POSITIVE_INFINITY || Math.abs(b - bEst) < slack;
      if (r == null || !near) {
        continue;
      }
      low = bLow == 0 ? r[0] : Math.min(low, r[0]);
      high = bLow == 0 ? r[1] : Math.max(high, r[1]);
      bLow = bLow == 0 ? b : bLow;
      bHigh = b;
    }
    return bLow == 0 ? null : new double[] {low, high, bLow, bHigh};
  }

  private static String cassandraSource(ForeignBloomFilter f, double n, double[] r) {
    String rows =
        r[2] == r[3]
            ? String.format(java.util.Locale.ROOT, "%d bits per key", (int) r[2])
            : String.format(
                java.util.Locale.ROOT, "%d to %d bits per key (ambiguous)", (int) r[2], (int) r[3]);
    return String.format(
        java.util.Locale.ROOT,
        "Cassandra's BloomCalculations table: k = %d at %s (estimated %.2f) is what"
            + " bloom_filter_fp_chance in [%.3g%%, %.3g%%) gives; the table's entry, the lower"
            + " end, is taken",
        f.numProbes(),
        rows,
        n >= 1 ? (f.sizeInBits() - 20.0) / n : Double.NaN,
        100 * r[0],
        100 * r[1]);
  }

  /**
   * The bytes of the Sieve filter {@code inspect} names for {@code keys} keys at {@code rate}: a
   * standard Bloom filter (same kind of filter, its bits and probes chosen for the rate).
   */
  static long sieveBloomBytes(long keys, double rate) {
    return StandardBloomFilter.builder()
        .fpRate(rate)
        .expectedKeys(Math.max(1, keys))
        .create()
        .sizeInBytes();
  }

  /** The information-theoretic floor in bytes, {@code keys · log2(1/rate) / 8}, rounded up. */
  static double floorBytes(long keys, double rate) {
    return Math.ceil(BloomMath.informationFloorBitsPerKey(rate) * keys / 8);
  }

  /** The one-line advice: over capacity or not, and what a Sieve filter would cost. */
  static String advice(double atFill, double sizedFor, long keys, long sieveBytes, long fileBytes) {
    StringBuilder s = new StringBuilder();
    if (atFill > 2 * sizedFor) {
      s.append(
          String.format(
              java.util.Locale.ROOT,
              "over capacity: %.3g%% false positives at its fill, not the %.3g%% it was sized for;"
                  + " ",
              100 * atFill,
              100 * sizedFor));
    }
    s.append(
        String.format(
            java.util.Locale.ROOT,
            "for %d keys at %.3g%%: a Bloom filter needs %d bytes (this one is %d), the"
                + " information floor %.0f; a static filter comes closer to the floor: sieve"
                + " build --type ribbon --fp-rate %s",
            keys,
            100 * sizedFor,
            sieveBytes,
            fileBytes,
            floorBytes(keys, sizedFor),
            Double.toString(sizedFor)));
    return s.toString();
  }
}
