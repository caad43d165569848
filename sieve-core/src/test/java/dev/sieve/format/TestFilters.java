package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.shard.ShardedFilter;
import dev.sieve.xor.BinaryFuse16Filter;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor16Filter;
import dev.sieve.xor.Xor8Filter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/** Small filters of every container type, and byte surgery on containers, for the tests. */
final class TestFilters {
  private TestFilters() {}

  /** A filter of {@code type} holding {@code keys} (deterministic: fixed seeds). */
  static Filter build(FilterType type, long[] keys) {
    switch (type) {
      case BLOCKED_BLOOM:
        return BlockedBloomFilter.builder().bitsPerKey(10).build(keys);
      case STANDARD_BLOOM:
        return StandardBloomFilter.builder().bitsPerKey(9.5).build(keys);
      case RIBBON_128:
        return Standard128RibbonFilter.builder().bitsPerKey(10).build(keys);
      case XOR8:
        return Xor8Filter.builder().seed(7).build(keys);
      case XOR16:
        return Xor16Filter.builder().seed(7).build(keys);
      case BINARY_FUSE8:
        return BinaryFuse8Filter.builder().seed(7).build(keys);
      case BINARY_FUSE16:
        return BinaryFuse16Filter.builder().seed(7).arity(4).build(keys);
      case CUCKOO:
        // at load <= 1/4: CuckooFilter.create(n, f) can fail to hold n keys when n is tiny (the
        // fuzzer found create(7, 12) full after 6 keys), so the tests leave room
        CuckooFilter cuckoo = CuckooFilter.create(4L * keys.length + 16, 12);
        for (long key : keys) {
          cuckoo.add(key);
        }
        return cuckoo;
      case SHARDED:
        return shardedBuilder().build(keys);
      default:
        throw new AssertionError(type);
    }
  }

  /**
   * A filter of {@code type} built from pre-computed key hashes, with {@link #build}'s settings
   * (Cuckoo excepted: it has no builder).
   */
  static Filter buildFromHashes(FilterType type, long[] hashes) {
    switch (type) {
      case BLOCKED_BLOOM:
        return BlockedBloomFilter.builder().bitsPerKey(10).buildFromHashes(hashes);
      case STANDARD_BLOOM:
        return StandardBloomFilter.builder().bitsPerKey(9.5).buildFromHashes(hashes);
      case RIBBON_128:
        return Standard128RibbonFilter.builder().bitsPerKey(10).buildFromHashes(hashes);
      case XOR8:
        return Xor8Filter.builder().seed(7).buildFromHashes(hashes);
      case XOR16:
        return Xor16Filter.builder().seed(7).buildFromHashes(hashes);
      case BINARY_FUSE8:
        return BinaryFuse8Filter.builder().seed(7).buildFromHashes(hashes);
      case BINARY_FUSE16:
        return BinaryFuse16Filter.builder().seed(7).arity(4).buildFromHashes(hashes);
      case SHARDED:
        return shardedBuilder().buildFromHashes(hashes);
      default:
        throw new IllegalArgumentException(type + " has no builder");
    }
  }

  /**
   * The sharded filter of the tests: 4 shards of Ribbon at 10 bits per key (Ribbon blocks are not a
   * multiple of 64 bytes, so the payload has padding; small key sets leave shards empty).
   */
  static ShardedFilter.Builder shardedBuilder() {
    return ShardedFilter.builder(4, () -> Standard128RibbonFilter.builder().bitsPerKey(10));
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
