package dev.sieve.sst;

import dev.sieve.Filter;
import dev.sieve.KeyFilter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;

/**
 * One RocksDB filter block as {@link FilterBlockReader} read it: its {@link FilterKind}, the Sieve
 * filter that answers for it (a {@link BlockedBloomFilter}, {@link Standard128RibbonFilter} or
 * {@link LegacyLocalityBloomFilter}; none for the "always" kinds), and the metadata its trailer
 * holds. Queries answer exactly as RocksDB's reader of the same block: keys are hashed as RocksDB
 * hashes them for this format (XXPH3 for FastLocalBloom and Ribbon, the legacy 32-bit hash for
 * legacy Bloom).
 */
public final class FilterBlock implements KeyFilter {
  private final FilterKind kind;
  private final KeyFilter filter;
  private final int blockBytes;
  private final long numKeys;
  private final String note;
  private final byte[] bytes;

  FilterBlock(FilterKind kind, KeyFilter filter, byte[] bytes, long numKeys, String note) {
    this.kind = kind;
    this.bytes = bytes;
    this.filter = filter;
    this.blockBytes = bytes.length;
    this.numKeys = numKeys;
    this.note = note;
  }

  /** {@return the block's kind} */
  public FilterKind kind() {
    return kind;
  }

  /**
   * {@return the Sieve filter behind the block, or {@code null} for the "always true/false" kinds}
   */
  public KeyFilter filter() {
    return filter;
  }

  /** {@return why the block reads as "always true/false", or {@code null}} */
  public String note() {
    return note;
  }

  /**
   * {@return a copy of the block's bytes as stored (its 5-byte metadata included, no SST trailer)}
   */
  public byte[] bytes() {
    return bytes.clone();
  }

  /** {@return the block's length in bytes, its 5-byte metadata included} */
  public int blockBytes() {
    return blockBytes;
  }

  /** {@return the Bloom probe count (FastLocalBloom or legacy), or -1 for other kinds} */
  public int numProbes() {
    if (filter instanceof BlockedBloomFilter blocked) {
      return blocked.numProbes();
    }
    if (filter instanceof LegacyLocalityBloomFilter legacy) {
      return legacy.numProbes();
    }
    return -1;
  }

  /** {@return the Ribbon hash seed (0..255), or -1 for other kinds} */
  public int ribbonSeed() {
    return filter instanceof Standard128RibbonFilter ribbon ? ribbon.seed() : -1;
  }

  /** {@return the number of 128-slot Ribbon blocks, or -1 for other kinds} */
  public int ribbonBlocks() {
    return filter instanceof Standard128RibbonFilter ribbon ? ribbon.numBlocks() : -1;
  }

  /** {@return the Ribbon result bits per key (the mean number of solution columns), or NaN} */
  public double ribbonResultBits() {
    return filter instanceof Standard128RibbonFilter ribbon ? ribbon.resultBits() : Double.NaN;
  }

  /**
   * Tests key bytes, as RocksDB's reader of this block does.
   *
   * @param key the key's bytes
   * @param off where the key starts
   * @param len the key's length
   * @return false if the key is definitely absent
   */
  public boolean mayContainKey(byte[] key, int off, int len) {
    return switch (kind) {
      case ALWAYS_FALSE -> false;
      case ALWAYS_TRUE -> true;
      default -> filter.mayContain(key, off, len);
    };
  }

  @Override
  public boolean mayContain(byte[] key) {
    return mayContainKey(key, 0, key.length);
  }

  @Override
  public boolean mayContain(byte[] key, int off, int len) {
    return mayContainKey(key, off, len);
  }

  /**
   * Tests a 64-bit XXPH3 key hash ({@link dev.sieve.hash.KeyHash}) where the block's format hashes
   * keys with it (FastLocalBloom, Ribbon, the "always" kinds). Not part of {@link KeyFilter}: a
   * legacy Bloom block hashes the key bytes with its own 32-bit hash, so a 64-bit hash tells it
   * nothing.
   *
   * @param hash64 the key hash
   * @return {@code false} if the key was definitely never added
   * @throws UnsupportedOperationException for a legacy Bloom block (query it by key bytes)
   */
  public boolean mayContainHash(long hash64) {
    return switch (kind) {
      case ALWAYS_FALSE -> false;
      case ALWAYS_TRUE -> true;
      default -> {
        if (!(filter instanceof Filter f)) {
          throw new UnsupportedOperationException(
              kind.label() + " blocks hash keys with their own function: query by key bytes");
        }
        yield f.mayContainHash(hash64);
      }
    };
  }

  /**
   * Whether {@link #mayContainHash} can answer for this block (every kind but legacy Bloom).
   *
   * @return {@code true} if the block is queried by the 64-bit key hash
   */
  public boolean hashesWithKeyHash() {
    return filter == null || filter instanceof Filter;
  }

  @Override
  public long numKeys() {
    return numKeys;
  }

  /** The data bits (the 5-byte metadata excluded). */
  @Override
  public long sizeInBits() {
    return filter != null ? filter.sizeInBits() : 8L * Math.max(0, blockBytes - 5);
  }

  @Override
  public double modelledFpRate() {
    return switch (kind) {
      case ALWAYS_FALSE -> 0.0;
      case ALWAYS_TRUE -> 1.0;
      default -> filter.modelledFpRate();
    };
  }

  /** The wrapped filter's rate judged from its data; 0 and 1 for the "always" kinds. */
  @Override
  public double expectedFpRate() {
    return switch (kind) {
      case ALWAYS_FALSE -> 0.0;
      case ALWAYS_TRUE -> 1.0;
      default -> filter.expectedFpRate();
    };
  }

  /** The wrapped filter's estimate of its key count; the block's count where it has none. */
  @Override
  public double approximateElementCount() {
    return filter == null ? numKeys : filter.approximateElementCount();
  }

  @Override
  public String toString() {
    return "FilterBlock["
        + kind.label()
        + (note == null ? "" : " (" + note + ")")
        + ", "
        + filter
        + "]";
  }
}
