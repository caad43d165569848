package dev.sieve;

import java.io.IOException;
import java.nio.channels.WritableByteChannel;

/**
 * A filter that has a RocksDB filter block: the bytes RocksDB's table builder writes for it and its
 * reader answers from, bit for bit. Implemented by the FastLocalBloom ({@code
 * dev.sieve.bloom.BlockedBloomFilter}) and Standard128Ribbon ({@code
 * dev.sieve.ribbon.Standard128RibbonFilter}) filters; RocksDB's policies, which choose between the
 * two per level and fall back from Ribbon to Bloom, live in {@code dev.sieve.policy.FilterPolicy}
 * (sieve-rocksdb).
 */
public interface RocksDbFilter extends Filter {

  /**
   * The filter block RocksDB writes for this filter, its 5-byte metadata trailer included (the SST
   * block trailer is not: it depends on the file offset); the 0-byte block for an empty filter.
   *
   * @return a new array holding the block
   * @throws IllegalStateException if the block does not fit one {@code byte[]} (use {@link
   *     #writeRocksDbFilterBlock})
   */
  byte[] toRocksDbFilterBlock();

  /**
   * The length of {@link #toRocksDbFilterBlock()}, for blocks of any size.
   *
   * @return the block's length in bytes, 0 for an empty filter
   */
  long rocksDbFilterBlockLength();

  /**
   * Writes {@link #toRocksDbFilterBlock()}'s bytes to {@code out}, for blocks of any size (beyond
   * what one {@code byte[]} holds). The channel is not closed.
   *
   * @param out where the {@link #rocksDbFilterBlockLength()} bytes go
   * @throws IOException from the channel
   */
  void writeRocksDbFilterBlock(WritableByteChannel out) throws IOException;
}
