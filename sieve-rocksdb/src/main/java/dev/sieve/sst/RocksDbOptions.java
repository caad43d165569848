package dev.sieve.sst;

import dev.sieve.policy.FilterPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
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
 *
 * <p>It also reads a database's newest {@code OPTIONS-NNNNNN} file for the filter policy of each
 * column family (the what-if of {@link DbFilterReport}).
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

  /** The OPTIONS files RocksDB writes are a few tens of KiB; a larger one is not read. */
  static final long MAX_OPTIONS_BYTES = 16L << 20;

  /**
   * The filter policy of each column family in the newest {@code OPTIONS-NNNNNN} file of {@code
   * dir}: name to {@code {bits, 0}} where {@code filter_policy} names {@code bloomfilter:B[:…]} or
   * {@code ribbonfilter:B[:L]}, in RocksDB's plain form ({@code
   * filter_policy=bloomfilter:10:false}) or its nested one ({@code
   * filter_policy={id=ribbonfilter:10:1;bloom_before_level=1;}}), B as written (not yet clamped).
   * Empty when there is no readable OPTIONS file; a column family whose policy is another or {@code
   * nullptr} is left out. The name of the file read is under the key {@code ""}.
   */
  static Map<String, String> optionsFilterPolicies(Path dir) {
    Map<String, String> out = new LinkedHashMap<>();
    if (dir == null) {
      return out;
    }
    Path newest = null;
    long newestNumber = -1;
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        String n = p.getFileName().toString();
        if (n.matches("OPTIONS-[0-9]{1,18}") && Files.isRegularFile(p)) {
          long number = Long.parseLong(n.substring("OPTIONS-".length()));
          if (number > newestNumber) {
            newestNumber = number;
            newest = p;
          }
        }
      }
      if (newest == null || Files.size(newest) > MAX_OPTIONS_BYTES) {
        return out;
      }
      String section = null;
      for (String line : Files.readAllLines(newest, StandardCharsets.UTF_8)) {
        String t = line.trim();
        if (t.startsWith("[")) {
          String prefix = "[TableOptions/BlockBasedTable \"";
          section =
              t.startsWith(prefix) && t.endsWith("\"]")
                  ? t.substring(prefix.length(), t.length() - 2)
                  : null;
        } else if (section != null && t.startsWith("filter_policy=")) {
          String v = t.substring("filter_policy=".length()).trim();
          if (v.startsWith("{")) {
            int id = v.indexOf("id=");
            if (id < 0) {
              continue;
            }
            int end = id + 3;
            while (end < v.length() && v.charAt(end) != ';' && v.charAt(end) != '}') {
              end++;
            }
            v = v.substring(id + 3, end);
          }
          if (v.startsWith("bloomfilter:") || v.startsWith("ribbonfilter:")) {
            out.put(section, v);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      return new LinkedHashMap<>(); // no OPTIONS to go by: the filters present decide
    }
    if (!out.isEmpty()) {
      out.put("", newest.getFileName().toString());
    }
    return out;
  }

  /** The L of {@code ribbonfilter:B:L}, or -2 where the policy names none. */
  // String.split semantics (trailing empties dropped) are the parsed format
  @SuppressWarnings("StringSplitter")
  static int policyBloomBeforeLevel(String policy) {
    String[] parts = policy.split(":");
    if (!parts[0].equals("ribbonfilter") || parts.length < 3) {
      return -2;
    }
    try {
      return Integer.parseInt(parts[2]);
    } catch (NumberFormatException e) {
      return -2;
    }
  }

  /** The B of {@code bloomfilter:B[:…]} / {@code ribbonfilter:B[:…]}, NaN if not a number. */
  // String.split semantics (trailing empties dropped) are the parsed format
  @SuppressWarnings("StringSplitter")
  static double policyBits(String policy) {
    String[] parts = policy.split(":");
    try {
      return parts.length < 2 ? Double.NaN : Double.parseDouble(parts[1]);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
