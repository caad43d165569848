package dev.sieve.spark;

import dev.sieve.bloom.BlockedBloomFilter;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;

/**
 * The aggregation buffer of {@link BloomAggregator}: one mutable blocked Bloom filter on the heap.
 * Spark keeps it as an object while a partition adds to it and serializes it only to ship it to the
 * merge: as the RocksDB filter block (data then trailer) and the key count.
 */
public final class BloomBuffer implements Serializable {
  private static final long serialVersionUID = 1L;

  private transient BlockedBloomFilter filter;

  BloomBuffer(BlockedBloomFilter filter) {
    this.filter = filter;
  }

  /** The filter this buffer fills. */
  BlockedBloomFilter filter() {
    return filter;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    out.writeLong(filter.numKeys());
    byte[] block = filter.toRocksDbFilterBlock();
    out.writeInt(block.length);
    out.write(block);
  }

  /** The length of the RocksDB filter block's trailer, after the data. */
  private static final int BLOCK_TRAILER_BYTES = 5;

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    long numKeys = in.readLong();
    int length = in.readInt();
    if (length < 0 || length > BlockedBloomFilter.MAX_DATA_BYTES + BLOCK_TRAILER_BYTES) {
      throw new IOException("a Bloom buffer of " + length + " bytes");
    }
    byte[] block = in.readNBytes(length);
    if (block.length != length) {
      throw new IOException("a Bloom buffer cut at " + block.length + " of " + length + " bytes");
    }
    filter = BlockedBloomFilter.fromRocksDbFilterBlock(block, numKeys);
  }
}
