package dev.sieve.bench;

import dev.sieve.MutableFilter;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.bench.SieveFilterMembership.Mode;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.TwoWordBloomFilter;
import java.lang.reflect.Field;
import java.util.List;
import org.fastfilter.bloom.BlockedBloom;
import org.fastfilter.utils.Hash;

/**
 * The structures of the out-of-cache lookups built from a {@link KeyStream}, with no array of the
 * keys: Sieve's default mutable Bloom filters (the two-word Bloom from its default builder, so its
 * default key scheme; the blocked Bloom in RocksDB's layout and hash) created empty for {@code n}
 * keys and filled key by key, FastFilter's BlockedBloom filled the same way, and the raw random
 * read. The names are those of {@link Structures}, and a Sieve filter built here is the one its row
 * there builds from the same keys (the tests compare them), so the figures read beside the in-cache
 * ones.
 */
public final class StreamedStructures {
  private StreamedStructures() {}

  /** Keys generated and added per chunk. */
  static final int CHUNK = 1 << 16;

  /** Builds one structure from streamed keys. */
  @FunctionalInterface
  public interface Builder {
    /** The structure over every key of {@code keys} at {@code bitsPerKey}. */
    Membership build(KeyStream keys, double bitsPerKey);
  }

  /** The rows, in report order. */
  public static List<String> names() {
    return List.of(
        "sieve-two-word-bloom",
        "sieve-two-word-bloom-batch",
        "sieve-blocked-bloom",
        "sieve-blocked-bloom-batch",
        "fastfilter-blocked-bloom",
        "raw-read-1x");
  }

  /** The builder of the row {@code name}. */
  public static Builder byName(String name) {
    return switch (name) {
      case "sieve-two-word-bloom" -> (k, b) -> sieve(twoWord(k, b), k, Mode.SINGLE);
      case "sieve-two-word-bloom-batch" -> (k, b) -> sieve(twoWord(k, b), k, Mode.BATCH);
      case "sieve-blocked-bloom" -> (k, b) -> sieve(blocked(k, b), k, Mode.SINGLE);
      case "sieve-blocked-bloom-batch" -> (k, b) -> sieve(blocked(k, b), k, Mode.BATCH);
      case "fastfilter-blocked-bloom" ->
          (k, b) -> new PeerAdapters.FastFilterMembership(fastFilter(k, b), Double.NaN);
      case "raw-read-1x" ->
          (k, b) -> RawRandomRead.ofWords(RawRandomRead.blockedBloomWords(k.size(), b));
      default -> {
        TwoWordProbeForms.Form form = TwoWordProbeForms.byRowName(name);
        if (form == null) {
          throw new IllegalArgumentException(
              "unknown streamed structure '"
                  + name
                  + "'; known: "
                  + String.join(", ", names())
                  + " and the experiment rows two-word-form-{copy,aligned,both,aligned-both}");
        }
        yield (k, b) -> TwoWordProbeForms.of((TwoWordBloomFilter) filled(twoWord(k, b), k), form);
      }
    };
  }

  private static MutableFilterBuilder<?> twoWord(KeyStream keys, double bitsPerKey) {
    return TwoWordBloomFilter.builder().bitsPerKey(bitsPerKey).expectedKeys(keys.size());
  }

  private static MutableFilterBuilder<?> blocked(KeyStream keys, double bitsPerKey) {
    return BlockedBloomFilter.builder().bitsPerKey(bitsPerKey).expectedKeys(keys.size());
  }

  private static Membership sieve(MutableFilterBuilder<?> builder, KeyStream keys, Mode mode) {
    return new SieveFilterMembership(filled(builder, keys), mode);
  }

  private static MutableFilter filled(MutableFilterBuilder<?> builder, KeyStream keys) {
    MutableFilter filter = builder.create();
    keys.forEachChunk(
        CHUNK,
        (chunk, count) -> {
          for (int i = 0; i < count; i++) {
            filter.add(chunk[i]);
          }
        });
    return filter;
  }

  /**
   * FastFilter's BlockedBloom for the keys at whole bits per key, filled by its own {@code add}.
   * Its constructor sizes the filter by {@code (int) (n * bitsPerKey) / 64} buckets, which wraps
   * past 2^31 bits (10^9 keys at 10 bits/key gives a filter of 1.4 bits/key), and is not public:
   * the filter is made by its public {@code construct} over no keys and then given the bucket count
   * and the bucket array its sizing means ({@code n * bitsPerKey / 64} buckets, 17 words of tail),
   * computed without the wrap. Below the wrap that is exactly the filter {@code construct} makes
   * (the tests compare them); the lookup is FastFilter's, untouched.
   */
  static BlockedBloom fastFilter(KeyStream keys, double bitsPerKey) {
    BlockedBloom filter = emptyFastFilter(keys.size(), bitsPerKey);
    keys.forEachChunk(
        CHUNK,
        (chunk, count) -> {
          for (int i = 0; i < count; i++) {
            filter.add(chunk[i]);
          }
        });
    return filter;
  }

  /** FastFilter's BlockedBloom sized for {@code n} keys, empty ({@link #fastFilter}). */
  static BlockedBloom emptyFastFilter(long n, double bitsPerKey) {
    Hash.setSeed(PeerAdapters.FASTFILTER_SEED);
    int bits = (int) Math.round(bitsPerKey);
    long buckets = n * bits / 64;
    if (buckets > Integer.MAX_VALUE - 32) {
      throw new IllegalArgumentException(
          "FastFilter's BlockedBloom holds at most 2^31 buckets; "
              + n
              + " keys at "
              + bits
              + " bits/key need "
              + buckets);
    }
    BlockedBloom filter = BlockedBloom.construct(new long[0], bits);
    setField(filter, "buckets", (int) buckets);
    setField(filter, "data", new long[(int) buckets + 16 + 1]);
    return filter;
  }

  private static void setField(BlockedBloom filter, String name, Object value) {
    try {
      Field f = BlockedBloom.class.getDeclaredField(name);
      f.setAccessible(true);
      f.set(filter, value);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException(
          "FastFilter's BlockedBloom has no settable field '" + name + "'", e);
    }
  }
}
