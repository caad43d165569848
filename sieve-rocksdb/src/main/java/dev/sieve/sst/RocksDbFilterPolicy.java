package dev.sieve.sst;

import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.hash.KeyHash;
import dev.sieve.ribbon.RibbonSizing;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A RocksDB built-in filter policy setting, and the writer path: the filter block RocksDB's builder
 * writes for a sequence of keys under that setting.
 *
 * <ul>
 *   <li>{@code bloom:BITS} — {@code BloomFilterPolicy(BITS)}: FastLocalBloom for format_version ≥
 *       5, the legacy Bloom for older ones. BITS below 0.5 means no filter, below 1 becomes 1, 100
 *       and above become 100; the rest rounds to thousandths ({@code millibits}); legacy Bloom uses
 *       whole bits, {@code (millibits + 500) / 1000}.
 *   <li>{@code ribbon:BITS[:BLOOM_BEFORE_LEVEL]} — {@code RibbonFilterPolicy(BITS,
 *       bloomBeforeLevel)} with BITS the <em>Bloom-equivalent</em> bits per key: Standard128Ribbon
 *       (or its FastLocalBloom fallback where RocksDB falls back) on levels at or above {@code
 *       bloomBeforeLevel}, FastLocalBloom below it. Flushes count as level −1, an unknown level
 *       (RocksDB's {@code SstFileWriter}) as the bottommost; {@code Integer.MAX_VALUE} means always
 *       Bloom. The default is 0: flushes Bloom, everything else Ribbon.
 * </ul>
 *
 * <h2>{@code optimize_filters_for_memory} (on by default, as in RocksDB 11)</h2>
 *
 * With the option RocksDB (table/block_based/filter_policy.cc, {@code AllocateMaybeRounding})
 * allocates the filter, asks the allocator for the usable size of the allocation ({@code
 * malloc_usable_size}) and, where that is larger but not by more than a third, grows the filter to
 * what fits (less the 5-byte block trailer, rounded down to whole 64-byte cache lines for Bloom,
 * 16-byte segments for Ribbon); it also picks FastLocalBloom's probe count from the bits per key
 * the final length gives rather than from the configured bits per key. A per-policy balance of the
 * FP rate gained by growing lets later filters of the same policy shrink by up to a quarter.
 *
 * <p>rocksdbjni's Linux library links no allocator of its own: it imports {@code
 * malloc_usable_size} from glibc, so in a JVM the allocator is glibc's malloc (verified: sizes of
 * rocksdbjni-written filters for 1 to 300,000 keys at 7.3, 10 and 16.9 bits/key all equal the
 * heap-chunk model below; jemalloc's size classes would have grown e.g. the 1,000-key 10 bits/key
 * block from 1,285 to 1,477 bytes). A glibc heap chunk's usable size exceeds the request by 8 to 15
 * bytes, or by 16 more where glibc hands out a free chunk whose remainder would be below its
 * 32-byte minimum. For FastLocalBloom neither reaches another 64-byte cache line, so the length
 * never grows, the balance stays 0 and no filter shrinks: what the option changes is the probe
 * count (1,000 keys at 10 bits/key: 1,285 bytes either way, 7 probes instead of 6), also for
 * Ribbon's Bloom fallback, and Sieve's blocks are byte-identical. A Ribbon filter grows by one
 * 16-byte segment in the second case, which the heap's state decides, not the keys (0 or 1 of about
 * 190 Ribbon blocks per test run); Sieve writes the usual length. Not reproduced either:
 * allocations glibc serves by {@code mmap} (above its dynamic mmap threshold, 128 KiB to 32 MiB,
 * when the heap cannot serve them), which round to 4 KiB pages, and everything after a filter grew
 * (the balance then lets later filters of the same policy, e.g. the next partitions, shrink); other
 * allocators (musl's, or jemalloc/tcmalloc preloaded). rocksdbjni was seen serving filters of up to
 * 634 KB from the heap.
 *
 * <p>Keys are given in the order RocksDB adds them to the filter (sorted key order within an SST);
 * only consecutive duplicate hashes are merged, as RocksDB does. Prefix filters and partitioned
 * filters, whose entries and cuts depend on the table, are built by {@link RocksDbTableFilter}.
 *
 * @param type Bloom or Ribbon
 * @param bitsPerKey the configured (Bloom-equivalent) bits per key
 * @param bloomBeforeLevel Ribbon only
 * @param optimizeFiltersForMemory RocksDB's {@code optimize_filters_for_memory} (default true)
 */
public record RocksDbFilterPolicy(
    Type type, double bitsPerKey, int bloomBeforeLevel, boolean optimizeFiltersForMemory) {

  /** The two built-in policies. */
  public enum Type {
    BLOOM,
    RIBBON
  }

  /** The level RocksDB assigns when it does not know one (an {@code SstFileWriter} file). */
  public static final int UNKNOWN_LEVEL = Integer.MAX_VALUE - 1;

  /** The level RocksDB assigns to flushes. */
  public static final int FLUSH_LEVEL = -1;

  public RocksDbFilterPolicy {
    Objects.requireNonNull(type, "type");
    if (!(bitsPerKey >= 0) || Double.isInfinite(bitsPerKey)) {
      throw new IllegalArgumentException("bits per key must be finite and >= 0, got " + bitsPerKey);
    }
  }

  /** The setting with RocksDB's default {@code optimize_filters_for_memory=true}. */
  public RocksDbFilterPolicy(Type type, double bitsPerKey, int bloomBeforeLevel) {
    this(type, bitsPerKey, bloomBeforeLevel, true);
  }

  public static RocksDbFilterPolicy bloom(double bitsPerKey) {
    return new RocksDbFilterPolicy(Type.BLOOM, bitsPerKey, 0);
  }

  public static RocksDbFilterPolicy ribbon(double bitsPerKey, int bloomBeforeLevel) {
    return new RocksDbFilterPolicy(Type.RIBBON, bitsPerKey, bloomBeforeLevel);
  }

  /** This setting with {@code optimize_filters_for_memory} on or off. */
  public RocksDbFilterPolicy withOptimizeFiltersForMemory(boolean on) {
    return new RocksDbFilterPolicy(type, bitsPerKey, bloomBeforeLevel, on);
  }

  /**
   * Parses {@code bloom:BITS} or {@code ribbon:BITS[:BLOOM_BEFORE_LEVEL]} (also RocksDB's own
   * {@code bloomfilter:BITS} and {@code ribbonfilter:BITS[:LEVEL]} spellings).
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static RocksDbFilterPolicy parse(String spec) {
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
          "filter policy '" + spec + "': bits per key '" + parts[1] + "' is not a number");
    }
    if (!(bits >= 0) || Double.isInfinite(bits)) {
      throw new IllegalArgumentException(
          "filter policy '" + spec + "': bits per key must be finite and >= 0");
    }
    int level = 0;
    if (parts.length == 3) {
      try {
        level = Integer.parseInt(parts[2]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "filter policy '" + spec + "': bloom_before_level '" + parts[2] + "' is not an int");
      }
    }
    return bloom ? bloom(bits) : ribbon(bits, level);
  }

  /** Whether the setting means "no filter" (bits per key below 0.5). */
  public boolean isNoFilter() {
    return bitsPerKey < 0.5;
  }

  /**
   * RocksDB's millibits per key for this setting ({@code BloomLikeFilterPolicy}): 0 for no filter,
   * else the bits clamped to [1, 100] in thousandths.
   */
  public int millibitsPerKey() {
    if (isNoFilter()) {
      return 0;
    }
    double b = Math.min(100.0, Math.max(1.0, bitsPerKey));
    return BlockedBloomFilter.rocksDbMillibitsPerKey(b);
  }

  /**
   * As {@link #buildFilterBlock(Iterable, int, int)} for the latest format and an unknown level.
   */
  public byte[] buildFilterBlock(Iterable<byte[]> keys) {
    return buildFilterBlock(keys, Footer.MAX_FORMAT_VERSION, UNKNOWN_LEVEL);
  }

  /**
   * The filter block (its 5-byte metadata included; the SST block trailer is not, as it depends on
   * the file offset) that RocksDB writes for {@code keys} in a table of {@code formatVersion} at
   * {@code level}.
   *
   * @return RocksDB's 0-byte block for no keys
   * @throws IllegalStateException for the "no filter" setting, for which RocksDB writes none
   */
  public byte[] buildFilterBlock(Iterable<byte[]> keys, int formatVersion, int level) {
    Objects.requireNonNull(keys, "keys");
    if (isNoFilter()) {
      throw new IllegalStateException(
          "bits per key " + bitsPerKey + " < 0.5 means no filter: RocksDB writes no filter block");
    }
    int millibits = millibitsPerKey();
    boolean useBloom = type == Type.BLOOM || level < bloomBeforeLevel;
    if (useBloom && type == Type.BLOOM && formatVersion < 5) {
      return LegacyLocalityBloomFilter.buildRocksDbFilterBlock(keys, (millibits + 500) / 1000);
    }
    List<byte[]> list = new ArrayList<>();
    keys.forEach(list::add);
    long[] hashes = new long[list.size()];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = KeyHash.hash64(Objects.requireNonNull(list.get(i), "key"));
    }
    return buildFromHashes(hashes, millibits, useBloom);
  }

  /** Whether RocksDB builds FastLocalBloom (not Ribbon) at {@code level}. */
  boolean bloomAt(int level) {
    return type == Type.BLOOM || level < bloomBeforeLevel;
  }

  /**
   * The filter block for hash entries collected as RocksDB's builder collects them (no two equal
   * neighbours), format_version ≥ 5; the 0-byte block for none.
   */
  byte[] finishEntries(long[] entries, int level) {
    return buildFromHashes(entries, millibitsPerKey(), bloomAt(level));
  }

  /**
   * RocksDB's {@code ApproximateNumEntries(bytes)} of the builder for {@code level} (format_version
   * ≥ 5): how many entries a filter of {@code bytes} bytes holds. It sizes filter partitions.
   */
  long approximateNumEntries(long bytes, int level) {
    int millibits = millibitsPerKey();
    if (bloomAt(level)) {
      return bloomApproximateNumEntries(bytes, millibits);
    }
    long dataBytes = (Math.max(bytes, TRAILER_BYTES) - TRAILER_BYTES) & ~15L;
    double sanitized = RibbonSizing.sanitizeBitsPerKey(bitsPerKey);
    double oneInFp = RibbonSizing.oneInFpRateForBloomBitsPerKey(sanitized);
    if (!(oneInFp > 1.0)) {
      return RibbonSizing.MAX_RIBBON_ENTRIES;
    }
    double minBitsPerSlot;
    if (oneInFp >= 4294967296.0) {
      minBitsPerSlot = 32.0;
    } else {
      // columns alternate between b and b + 1: slightly below log2(1 / fp rate) bits a slot
      long rounded = (long) oneInFp;
      int upperBits = 64 - Long.numberOfLeadingZeros(rounded);
      double upperRate = Math.pow(2.0, -upperBits);
      minBitsPerSlot = upperBits - (1.0 / oneInFp - upperRate) / upperRate;
    }
    double maxSlots = dataBytes * 8.0 / minBitsPerSlot;
    if (!(maxSlots < RibbonSizing.numSlotsForKeys(RibbonSizing.MAX_RIBBON_ENTRIES))) {
      return RibbonSizing.MAX_RIBBON_ENTRIES;
    }
    long slots = RibbonSizing.roundUpNumSlots((long) maxSlots);
    for (int i = 0; slots > 0; i++) {
      if (RibbonSizing.bytesForOneInFpRate((int) slots, oneInFp, 0) <= dataBytes || i >= 2) {
        break;
      }
      slots = (slots - 1) / RibbonSizing.SLOTS_PER_BLOCK * RibbonSizing.SLOTS_PER_BLOCK;
      if (slots == RibbonSizing.SLOTS_PER_BLOCK) {
        slots = 0; // one start position is never used
      }
    }
    long entries = RibbonSizing.numKeysForSlots((int) slots);
    if (slots < RibbonSizing.BLOOM_COMPARISON_SLOTS) {
      return Math.max(entries, bloomApproximateNumEntries(bytes, millibits));
    }
    return Math.min(entries, RibbonSizing.MAX_RIBBON_ENTRIES);
  }

  private static long bloomApproximateNumEntries(long bytes, int millibits) {
    long data =
        bytes >= TRAILER_BYTES
            ? Math.min(bytes - TRAILER_BYTES, BlockedBloomFilter.MAX_DATA_BYTES) & ~63L
            : 0;
    return 8000L * data / millibits;
  }

  private byte[] buildFromHashes(long[] hashes, int millibits, boolean useBloom) {
    if (hashes.length == 0) {
      return new byte[0];
    }
    Filter f =
        useBloom
            ? BlockedBloomFilter.buildRocksDb(hashes, hashes.length, millibits)
            : Standard128RibbonFilter.buildRocksDb(hashes, hashes.length, bitsPerKey);
    if (f instanceof BlockedBloomFilter) {
      BlockedBloomFilter bloom = (BlockedBloomFilter) f;
      if (optimizeFiltersForMemory) {
        bloom = withProbesForAllocatedLength(bloom, hashes);
      }
      return bloom.toRocksDbFilterBlock();
    }
    // Ribbon: a glibc heap chunk of the usual size never adds a 16-byte segment (allocatedLength),
    // so the layout is the one RocksDB solves for without the option
    return ((Standard128RibbonFilter) f).toRocksDbFilterBlock();
  }

  /**
   * The FastLocalBloom filter RocksDB writes with {@code optimize_filters_for_memory}: the length
   * after {@link #allocatedLength} and the probe count for the bits per key that length gives.
   */
  private static BlockedBloomFilter withProbesForAllocatedLength(
      BlockedBloomFilter planned, long[] hashes) {
    long entries = planned.numKeys(); // distinct consecutive hashes, as RocksDB counts them
    long dataBytes =
        allocatedLength(planned.sizeInBits() / 8 + TRAILER_BYTES, BlockedBloomFilter.BLOCK_BYTES)
            - TRAILER_BYTES;
    int probes =
        BlockedBloomFilter.chooseNumProbes(
            (int) (dataBytes * 8000L / Math.max(1L, entries))); // RocksDB's GetNumProbes
    if (probes == planned.numProbes() && dataBytes == planned.sizeInBits() / 8) {
      return planned;
    }
    BlockedBloomFilter f = BlockedBloomFilter.withShape(dataBytes, probes);
    for (int i = 0; i < hashes.length; i++) {
      if (i == 0 || hashes[i] != hashes[i - 1]) {
        f.addHash(hashes[i]);
      }
    }
    return f;
  }

  private static final int TRAILER_BYTES = 5;

  /**
   * The filter length (trailer included) RocksDB's {@code AllocateMaybeRounding} settles on for a
   * target length, with a fresh policy's balance of 0 and glibc's {@code malloc_usable_size}: the
   * request is the target plus the 5-byte block trailer; a usable size more than a third above it
   * is ignored; otherwise the usable size less the block trailer, rounded down to {@code
   * granularity} after the filter trailer, is the length.
   */
  static long allocatedLength(long targetWithTrailer, int granularity) {
    long requested = targetWithTrailer + TRAILER_BYTES;
    long usable = glibcUsableSize(requested);
    if (usable - usable / 4 > requested || usable <= requested) {
      return targetWithTrailer;
    }
    long data = Math.min(usable - TRAILER_BYTES - TRAILER_BYTES, BlockedBloomFilter.MAX_DATA_BYTES);
    return (data & -(long) granularity) + TRAILER_BYTES;
  }

  /**
   * glibc malloc's usable size of a heap chunk for {@code request} bytes on 64-bit Linux: chunks
   * are the request plus an 8-byte header rounded up to 16 bytes, at least 32; the usable part is
   * the chunk less its header.
   */
  static long glibcUsableSize(long request) {
    long chunk = Math.max(32, (request + 8 + 15) & ~15L);
    return chunk - 8;
  }

  @Override
  public String toString() {
    return type == Type.BLOOM
        ? "bloom:" + bitsPerKey
        : "ribbon:" + bitsPerKey + (bloomBeforeLevel == 0 ? "" : ":" + bloomBeforeLevel);
  }
}
