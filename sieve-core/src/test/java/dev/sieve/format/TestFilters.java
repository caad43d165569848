package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.bloom.SplitBlockBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.bloom.TwoWordBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.expand.ExpandableFilter;
import dev.sieve.registry.FilterType;
import dev.sieve.ribbon.BumpedRibbonFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.shard.ShardedFilter;
import dev.sieve.xor.BinaryFuse16Filter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/** Small filters of every container type, and byte surgery on containers, for the tests. */
final class TestFilters {
  private TestFilters() {}

  /**
   * The builder of {@code type} (its class's own builder, or the registry's) at the tests'
   * settings: 10 bits/key (the standard Bloom filter 9.5, for a fractional size), 12-bit Cuckoo
   * fingerprints, seed 7 where the type takes one, and arity 4 for Binary Fuse 16 (so both arities
   * are covered). The golden files were written with these settings.
   */
  static FilterBuilder<? extends Filter> builder(FilterType type) {
    if (type == FilterType.SHARDED) {
      return shardedBuilder();
    }
    if (type == FilterType.SCALABLE_BLOOM) {
      // from a guess of 100 keys, so that a few hundred keys open several stages, as its golden
      // file was written
      return ScalableBloomFilter.builder().expectedKeys(100).fpRate(0.01);
    }
    if (type == FilterType.BUMPED_RIBBON) {
      // 7 whole result bits (FPR 1/128), as its golden file was written
      return BumpedRibbonFilter.builder().resultBits(7).seed(7);
    }
    if (type == FilterType.SPLIT_BLOCK_BLOOM) {
      // Parquet's own sizing (a power of two at 1%), as its golden file was written
      return SplitBlockBloomFilter.builder().fpRate(0.01);
    }
    if (type == FilterType.ORC_BLOOM) {
      // ORC's sizing at 1% (its default is 5%), as its golden file was written
      return type.builder().fpRate(0.01);
    }
    switch (type) {
      case BLOCKED_BLOOM:
        return BlockedBloomFilter.builder().bitsPerKey(10);
      case STANDARD_BLOOM:
        return StandardBloomFilter.builder().bitsPerKey(9.5);
      case TWO_WORD_BLOOM:
        return TwoWordBloomFilter.builder().bitsPerKey(10);
      case RIBBON:
        return Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(10);
      case CUCKOO:
        return CuckooFilter.builder().fingerprintBits(12);
      case GRAFITE:
      case PREFIX_BLOOM_RANGE:
        // keys hashed by XXPH3 (a scheme set: a point filter over hashes, for keys of every form;
        // with none set, long keys build over themselves), as their golden files were written
        return type.builder().seed(7).keyScheme(KeyScheme.XXPH3);
      case EXPANDABLE:
        // from the smallest table, so that adds double it
        return ExpandableFilter.builder().fpRate(0.01);
      default:
        FilterBuilder<? extends Filter> b = type.builder().seed(7);
        if (b instanceof BinaryFuse16Filter.Builder) {
          ((BinaryFuse16Filter.Builder) b).arity(4);
        }
        return b;
    }
  }

  /**
   * A filter of {@code type} holding {@code keys} (deterministic: fixed seeds), through {@link
   * #builder}; Cuckoo as the golden file was written, by adds into a table of {@code 4n + 16} keys
   * (its builder sizes the table for the keys given).
   */
  static Filter build(FilterType type, long[] keys) {
    if (type == FilterType.CUCKOO) {
      CuckooFilter cuckoo = CuckooFilter.createWithFingerprintBits(4L * keys.length + 16, 12);
      for (long key : keys) {
        if (!cuckoo.add(key)) {
          throw new AssertionError("cuckoo full at " + cuckoo.numKeys());
        }
      }
      return cuckoo;
    }
    return builder(type).build(keys);
  }

  /**
   * The filter of {@code type}'s golden file: {@link #build} under XXPH3, the scheme every golden
   * file was written with (the builders of the types no format binds default to FAST since).
   */
  static Filter buildGolden(FilterType type, long[] keys) {
    if (type == FilterType.CUCKOO) {
      return build(type, keys); // by adds into a table made without a builder: XXPH3
    }
    return builder(type).keyScheme(KeyScheme.XXPH3).build(keys);
  }

  /** A filter of {@code type} built from pre-computed key hashes, through {@link #builder}. */
  static Filter buildFromHashes(FilterType type, long[] hashes) {
    return builder(type).buildFromHashes(hashes);
  }

  /**
   * The sharded filter of the tests: 4 shards of Ribbon at 10 bits per key (Ribbon blocks are not a
   * multiple of 64 bytes, so the payload has padding; small key sets leave shards empty).
   */
  static ShardedFilter.Builder shardedBuilder() {
    return ShardedFilter.builder(
        4, () -> Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(10));
  }

  /** Keys {@code 0..n-1} spread by a fixed odd multiplier. */
  static long[] keys(int n, long salt) {
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = (i + salt) * 0x9E3779B97F4A7C15L;
    }
    return out;
  }

  /**
   * A copy of {@code bytes} with the header checksum and, if the payload length fits, the payload
   * checksum recomputed, so that a mutation reaches the checks behind them.
   */
  static byte[] fixChecksums(byte[] bytes) {
    byte[] out = bytes.clone();
    if (out.length < SieveFormat.HEADER_BYTES) {
      return out;
    }
    ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(SieveFormat.HEADER_CRC_OFFSET, crc(out, 0, SieveFormat.HEADER_CRC_OFFSET));
    long len = b.getLong(SieveFormat.PAYLOAD_LENGTH_OFFSET);
    if (len >= 0 && len <= out.length - SieveFormat.HEADER_BYTES - SieveFormat.CHECKSUM_BYTES) {
      b.putInt(SieveFormat.HEADER_BYTES + (int) len, crc(out, SieveFormat.HEADER_BYTES, (int) len));
    }
    return out;
  }

  static int crc(byte[] bytes, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(bytes, off, len);
    return (int) c.getValue();
  }

  /** {@code bytes} with a little-endian long written at {@code offset}, checksums fixed. */
  static byte[] withLong(byte[] bytes, int offset, long value) {
    byte[] out = bytes.clone();
    ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putLong(offset, value);
    return fixChecksums(out);
  }

  /** {@code bytes} with a little-endian short written at {@code offset}, checksums fixed. */
  static byte[] withShort(byte[] bytes, int offset, int value) {
    byte[] out = bytes.clone();
    ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putShort(offset, (short) value);
    return fixChecksums(out);
  }

  /** {@code bytes} with a little-endian int written at {@code offset}, checksums fixed. */
  static byte[] withInt(byte[] bytes, int offset, int value) {
    byte[] out = bytes.clone();
    ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(offset, value);
    return fixChecksums(out);
  }
}
