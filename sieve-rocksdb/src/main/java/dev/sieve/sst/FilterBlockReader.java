package dev.sieve.sst;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.util.Objects;

/**
 * Reads one raw RocksDB filter block (the bytes a full filter or one filter partition stores, block
 * trailer excluded) the way RocksDB's {@code BuiltinFilterPolicy::GetBuiltinFilterBitsReader}
 * (table/block_based/filter_policy.cc) tells its formats apart, by the byte at {@code len - 5} read
 * as a signed {@code int8}:
 *
 * <ul>
 *   <li>a block of at most 5 bytes → "always false" (no keys were added);
 *   <li>0 → "always true";
 *   <li>−1 → newer Bloom: sub-implementation byte 0, 64-byte blocks, 1..30 probes and zero reserved
 *       bytes is FastLocalBloom; anything else "always true";
 *   <li>−2 → Standard128Ribbon; fewer than 2 blocks "always true";
 *   <li>other negative values → "always true" (reserved);
 *   <li>≥ 1 → legacy Bloom with that many probes, if the last 4 bytes (number of cache lines)
 *       divide the data into power-of-two lines; otherwise "always true".
 * </ul>
 *
 * "Always true" is RocksDB's safe fallback for formats it does not know; Sieve does the same and
 * says so in {@link FilterBlock#kind()}, so a caller can tell a working filter from the fallback.
 */
public final class FilterBlockReader {
  private FilterBlockReader() {}

  private static final int TRAILER = 5;

  /**
   * Reads a filter block, whatever its kind.
   *
   * @param block the block, its 5-byte metadata included
   * @param numKeys the number of keys (not stored in the format; it feeds the model FPR)
   * @return the block as Sieve reads it
   */
  public static FilterBlock read(byte[] block, long numKeys) {
    Objects.requireNonNull(block, "block");
    int len = block.length;
    if (len <= TRAILER) {
      return new FilterBlock(FilterKind.ALWAYS_FALSE, null, block, numKeys, "no keys");
    }
    int dataLen = len - TRAILER;
    int marker = block[dataLen];
    if (marker == 0) {
      return alwaysTrue(block, numKeys, "zero probes");
    }
    if (marker == -1) {
      int subImpl = block[dataLen + 1] & 0xFF;
      int blockAndProbes = block[dataLen + 2] & 0xFF;
      int probes = blockAndProbes & 31;
      int log2BlockBytes = (blockAndProbes >>> 5) + 6;
      boolean restZero = block[dataLen + 3] == 0 && block[dataLen + 4] == 0;
      if (subImpl != 0 || log2BlockBytes != 6 || probes < 1 || probes > 30 || !restZero) {
        return alwaysTrue(block, numKeys, "reserved newer-Bloom variant");
      }
      byte[] whole = block;
      int usable = dataLen & ~63;
      if (usable != dataLen) {
        // RocksDB reads floor(len / 64) cache lines and ignores the rest; so does Sieve
        whole = new byte[usable + TRAILER];
        System.arraycopy(block, 0, whole, 0, usable);
        System.arraycopy(block, dataLen, whole, usable, TRAILER);
      }
      if (usable == 0) {
        return alwaysTrue(block, numKeys, "FastLocalBloom with no whole cache line");
      }
      BlockedBloomFilter f = BlockedBloomFilter.fromRocksDbFilterBlock(whole, numKeys);
      return new FilterBlock(FilterKind.FAST_LOCAL_BLOOM, f, block, numKeys, null);
    }
    if (marker == -2) {
      int numBlocks =
          (block[dataLen + 2] & 0xFF)
              | (block[dataLen + 3] & 0xFF) << 8
              | (block[dataLen + 4] & 0xFF) << 16;
      if (numBlocks < 2) {
        return alwaysTrue(block, numKeys, "Ribbon with fewer than 2 blocks");
      }
      byte[] whole = block;
      int usable = dataLen & ~15;
      if (usable != dataLen) {
        whole = new byte[usable + TRAILER];
        System.arraycopy(block, 0, whole, 0, usable);
        System.arraycopy(block, dataLen, whole, usable, TRAILER);
      }
      long segments = usable / 16;
      if (segments == 0 || segments > (long) numBlocks * 32) {
        // RocksDB would read such a block with no columns (or ignore the excess); Sieve's
        // typed reader refuses it, and "always true" is never wrong
        return alwaysTrue(block, numKeys, "Ribbon data length inconsistent with its blocks");
      }
      Standard128RibbonFilter f = Standard128RibbonFilter.fromRocksDbFilterBlock(whole, numKeys);
      return new FilterBlock(FilterKind.RIBBON, f, block, numKeys, null);
    }
    if (marker < 0) {
      return alwaysTrue(block, numKeys, "reserved marker " + marker);
    }
    long lines = LittleEndian.u32(block, dataLen + 1);
    if (LegacyLocalityBloomFilter.lineSizeLog2(dataLen, lines) < 0) {
      return alwaysTrue(block, numKeys, "legacy Bloom with inconsistent cache lines");
    }
    LegacyLocalityBloomFilter f = LegacyLocalityBloomFilter.fromRocksDbFilterBlock(block, numKeys);
    return new FilterBlock(FilterKind.LEGACY_BLOOM, f, block, numKeys, null);
  }

  private static FilterBlock alwaysTrue(byte[] block, long numKeys, String why) {
    return new FilterBlock(FilterKind.ALWAYS_TRUE, null, block, numKeys, why);
  }
}
