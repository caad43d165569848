package dev.sieve.sst;

/**
 * Where a block lies in an SST file: its offset and its size <em>without</em> the 5-byte trailer
 * that follows it. Encoded as two varint64s (table/format.h {@code BlockHandle}).
 *
 * @param offset the block's first byte in the file
 * @param size the block's length, trailer excluded
 */
public record BlockHandle(long offset, long size) {
  /** {@return whether this is RocksDB's null handle (offset and size 0), which points nowhere} */
  public boolean isNull() {
    return offset == 0 && size == 0;
  }

  @Override
  public String toString() {
    return "[" + offset + ", +" + size + "]";
  }
}
