package dev.sieve.sst;

import dev.sieve.policy.FilterPolicy;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * RocksDB's filter policy settings as written in its options: {@code bloom:BITS} or {@code
 * ribbon:BITS[:BLOOM_BEFORE_LEVEL]}, and RocksDB's own {@code bloomfilter:BITS} and {@code
 * ribbonfilter:BITS[:LEVEL]} spellings, read into the one policy type, {@link FilterPolicy}.
 *
 * <ul>
 *   <li>{@code bloom:BITS} — {@code BloomFilterPolicy(BITS)}: FastLocalBloom for format_version ≥
 *       5, the legacy Bloom for older ones ({@link RocksDbTableFilter#filterBlock(FilterPolicy,
 *       Iterable, int, int)}). BITS below 0.5 means no filter, below 1 becomes 1, 100 and above
 *       become 100; the rest rounds to thousandths ({@code millibits}); legacy Bloom uses whole
 *       bits, {@code (millibits + 500) / 1000}.
 *   <li>{@code ribbon:BITS[:BLOOM_BEFORE_LEVEL]} — {@code RibbonFilterPolicy(BITS,
 *       bloomBeforeLevel)} with BITS the <em>Bloom-equivalent</em> bits per key; the default level
 *       is 0: flushes Bloom, everything else Ribbon ({@link FilterPolicy} has the rules).
 * </ul>
 */
public final class RocksDbOptions {

  private RocksDbOptions() {}

  /**
   * Parses a filter policy setting.
   *
   * @param spec {@code bloom:BITS} or {@code ribbon:BITS[:BLOOM_BEFORE_LEVEL]} (also {@code
   *     bloomfilter:} and {@code ribbonfilter:})
   * @return the policy, with {@code optimize_filters_for_memory} on; empty for bits per key below
   *     0.5, which RocksDB reads as "no filter"
   * @throws IllegalArgumentException naming what is wrong
   */
  public static Optional<FilterPolicy> filterPolicy(String spec) {
    Objects.requireNonNull(spec, "spec");
    String[] parts = spec.trim().split(":", -1);
    String name = parts[0].toLowerCase(Locale.ROOT);
    boolean bloom = name.equals("bloom") || name.equals("bloomfilter");
    boolean ribbon = name.equals("ribbon") || name.equals("ribbonfilter");
    if (!bloom && !ribbon) {
      throw new IllegalArgumentException(
          "filter policy '" + spec + "': expected bloom:BITS or ribbon:BITS[:BLOOM_BEFORE_LEVEL]");
    }
    if (parts.length < 2 || parts.length > (ribbon ? 3 : 2)) {
      throw new IllegalArgumentException(
          "filter policy '" + spec + "': expected bloom:BITS or ribbon:BITS[:BLOOM_BEFORE_LEVEL]");
    }
    double bits;
    try {
      bits = Double.parseDouble(parts[1]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "filter policy '" + spec + "': bits per key '" + parts[1] + "' is not a number", e);
    }
    if (!(bits >= 0) || Double.isInfinite(bits)) {
      throw new IllegalArgumentException(
          "filter policy '" + spec + "': bits per key must be finite and >= 0");
    }
    int level = FilterPolicy.DEFAULT_BLOOM_BEFORE_LEVEL;
    if (parts.length == 3) {
      try {
        level = Integer.parseInt(parts[2]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "filter policy '" + spec + "': bloom_before_level '" + parts[2] + "' is not an int", e);
      }
    }
    if (bits < 0.5) {
      return Optional.empty();
    }
    return Optional.of(bloom ? FilterPolicy.bloom(bits) : FilterPolicy.ribbon(bits, level));
  }
}
