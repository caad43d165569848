package dev.sieve.sst;

import dev.sieve.sst.RocksDbTableFilter.Partition;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The top-level index block of a partitioned filter, as RocksDB writes it after the partitions
 * ({@link RocksDbTableFilter#partitionIndexBlock} gives the layout): a key/value block with one
 * entry per partition, the separator as key and the partition's block handle as value, keys
 * prefix-shared and handles delta-encoded within a restart interval.
 */
final class PartitionIndexBlock {
  private PartitionIndexBlock() {}

  /** {@link RocksDbTableFilter#partitionIndexBlock}. */
  static byte[] write(
      List<Partition> parts,
      long firstPartitionOffset,
      boolean userKeys,
      boolean valueDeltaEncoded,
      int restartInterval) {
    if (parts.isEmpty() || firstPartitionOffset < 0 || restartInterval < 1) {
      throw new IllegalArgumentException(
          "need at least one partition, an offset >= 0 and a restart interval >= 1; got "
              + parts.size()
              + " partitions, offset "
              + firstPartitionOffset
              + ", interval "
              + restartInterval);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<Integer> restarts = new ArrayList<>();
    byte[] lastKey = new byte[0];
    long offset = firstPartitionOffset;
    long lastSize = 0;
    int counter = 0;
    for (int i = 0; i < parts.size(); i++) {
      byte[] sep = parts.get(i).separator();
      byte[] key = userKeys ? sep : Arrays.copyOf(sep, sep.length + 8);
      long size = parts.get(i).block().length;
      int shared = 0;
      if (i == 0 || counter >= restartInterval) {
        restarts.add(out.size());
        counter = 0;
      } else {
        int max = Math.min(key.length, lastKey.length);
        while (shared < max && key[shared] == lastKey[shared]) {
          shared++;
        }
      }
      byte[] value;
      if (shared != 0 && valueDeltaEncoded) {
        value = zigZagVarint(size - lastSize);
      } else {
        ByteArrayOutputStream v = new ByteArrayOutputStream();
        writeVarint(v, offset);
        writeVarint(v, size);
        value = v.toByteArray();
      }
      writeVarint(out, shared);
      writeVarint(out, key.length - shared);
      if (!valueDeltaEncoded) {
        writeVarint(out, value.length);
      }
      out.write(key, shared, key.length - shared);
      out.write(value, 0, value.length);
      lastKey = key;
      lastSize = size;
      offset += size + Footer.BLOCK_TRAILER_BYTES;
      counter++;
    }
    for (int r : restarts) {
      writeFixed32(out, r);
    }
    writeFixed32(out, restarts.size()); // footer: binary search only, no flags
    return out.toByteArray();
  }

  private static void writeVarint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) (v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static byte[] zigZagVarint(long v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    writeVarint(out, (v << 1) ^ (v >> 63));
    return out.toByteArray();
  }

  private static void writeFixed32(ByteArrayOutputStream out, int v) {
    out.write(v);
    out.write(v >>> 8);
    out.write(v >>> 16);
    out.write(v >>> 24);
  }
}
