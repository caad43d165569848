package dev.sieve.cli;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.SplitBlockBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.bloom.TwoWordBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.registry.FilterType;
import dev.sieve.ribbon.BumpedRibbonFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.util.Locale;

/**
 * The CLI's {@code --setting} (build) and bits/key column (compare): one number per type, given to
 * the type's own builder under its own name. The registry's one knob is {@code fpRate}; the size
 * settings mean different things per type, so the CLI names them here: bits per key (the Bloom
 * filters), Bloom-equivalent bits per key (Ribbon, RocksDB's setting), fingerprint bits (Cuckoo's
 * fingerprints, Bumped Ribbon's result bits); the other types take none (their size is fixed, grows
 * by itself or is their shards').
 */
final class SizeSettings {
  private SizeSettings() {}

  /** The setting's name, e.g. {@code "bits_per_key"}; {@code null} if the type has none. */
  static String name(FilterType type) {
    return switch (type) {
      case BLOCKED_BLOOM, STANDARD_BLOOM, SPLIT_BLOCK_BLOOM, TWO_WORD_BLOOM -> "bits_per_key";
      case RIBBON -> "bloom_equivalent_bits_per_key";
      case CUCKOO, BUMPED_RIBBON -> "fingerprint_bits";
      default -> null;
    };
  }

  /** {@return whether the type takes a size setting} */
  static boolean has(FilterType type) {
    return name(type) != null;
  }

  /** {@return whether the type's setting is bits per key (the Bloom filters)} */
  static boolean isBitsPerKey(FilterType type) {
    return "bits_per_key".equals(name(type));
  }

  /**
   * A builder of {@code type} at {@code setting}.
   *
   * @throws IllegalArgumentException if the setting is out of the type's range, or the type has no
   *     size setting (the message says why)
   */
  static FilterBuilder<? extends Filter> builder(FilterType type, double setting) {
    return switch (type) {
      case BLOCKED_BLOOM -> BlockedBloomFilter.builder().bitsPerKey(setting);
      case STANDARD_BLOOM -> StandardBloomFilter.builder().bitsPerKey(setting);
      case SPLIT_BLOCK_BLOOM -> SplitBlockBloomFilter.builder().bitsPerKey(setting);
      case TWO_WORD_BLOOM -> TwoWordBloomFilter.builder().bitsPerKey(setting);
      case RIBBON -> Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(setting);
      case CUCKOO -> CuckooFilter.builder().fingerprintBits(wholeBits(setting));
      case BUMPED_RIBBON -> BumpedRibbonFilter.builder().resultBits(wholeBits(setting));
      default ->
          throw new IllegalArgumentException(
              type.cliName() + " has no size setting (" + whyNone(type) + "), got " + setting);
    };
  }

  /** Why {@code type} takes no number, for its message. */
  private static String whyNone(FilterType type) {
    return switch (type) {
      case SCALABLE_BLOOM, EXPANDABLE ->
          "it grows as keys arrive; its one knob is the rate: --fp-rate";
      case SHARDED ->
          "its size is its shards' (the registry's builder makes 16 Binary Fuse 8 shards)";
      case XOR8, BINARY_FUSE8 -> "its 8-bit fingerprints fix its size";
      case XOR16, BINARY_FUSE16 -> "its 16-bit fingerprints fix its size";
      case ORC_BLOOM -> "ORC sizes it from the rate alone, as its writer's fpp: --fp-rate";
      case GRAFITE, PREFIX_BLOOM_RANGE ->
          "a range filter, sized by its rate and max range length (--fp-rate; bitsPerKey and"
              + " maxRangeLength on its builder in code)";
      default -> "use --fp-rate";
    };
  }

  private static int wholeBits(double setting) {
    if (setting != Math.rint(setting) || setting < 1 || setting > 64) {
      throw new IllegalArgumentException("fingerprint bits must be a whole number, got " + setting);
    }
    return (int) setting;
  }

  /** {@return the setting as the build summary names it, e.g. " bits_per_key 10.0"} */
  static String describe(FilterType type, double setting) {
    return " " + name(type).toLowerCase(Locale.ROOT) + " " + setting;
  }
}
