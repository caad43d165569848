package dev.sieve.sst;

import java.util.Arrays;

/**
 * The user-key order of a table, recognised by the comparator name its properties record ({@code
 * rocksdb.comparator}; util/comparator.cc): {@code leveldb.BytewiseComparator} (unsigned bytes,
 * then length), {@code rocksdb.ReverseBytewiseComparator} (the reverse of that), and each with the
 * suffix {@code .u64ts}, a user-defined timestamp of 8 bytes appended to every stored user key. A
 * timestamped comparator orders user keys by the base order of the key without its timestamp, then
 * by timestamp, newest first; filters hold the key without the timestamp (RocksDB's table builder
 * strips it before adding a key to the filter).
 *
 * <p>Any other name is a custom comparator that Sieve cannot evaluate: {@link #known()} is false,
 * and callers must not rely on {@link #compare} for it.
 *
 * @param name the comparator name as recorded
 * @param known whether the order is one of the four built-in ones
 * @param reverse reverse bytewise
 * @param timestampBytes the size of the user-defined timestamp (0 or 8)
 */
record KeyComparator(String name, boolean known, boolean reverse, int timestampBytes) {
  static final String BYTEWISE = "leveldb.BytewiseComparator";
  static final String REVERSE_BYTEWISE = "rocksdb.ReverseBytewiseComparator";
  static final String U64_TS_SUFFIX = ".u64ts";

  static KeyComparator parse(String name) {
    String base = name;
    int ts = 0;
    if (name.endsWith(U64_TS_SUFFIX)) {
      base = name.substring(0, name.length() - U64_TS_SUFFIX.length());
      ts = Long.BYTES;
    }
    if (base.equals(BYTEWISE)) {
      return new KeyComparator(name, true, false, ts);
    }
    if (base.equals(REVERSE_BYTEWISE)) {
      return new KeyComparator(name, true, true, ts);
    }
    return new KeyComparator(name, false, false, 0);
  }

  /** Whether this is plain bytewise order without timestamps (RocksDB's default). */
  boolean isBytewise() {
    return known && !reverse && timestampBytes == 0;
  }

  /** Compares two user keys without timestamps in this order. */
  int compare(byte[] a, byte[] b) {
    int c = Arrays.compareUnsigned(a, b);
    return reverse ? -c : c;
  }
}
