package dev.sieve.internal.base;

import java.util.Arrays;

/** A growable {@code long} array without boxing. Not thread-safe. */
public final class LongList {
  private long[] values;
  private int size;

  public LongList(int initialCapacity) {
    values = new long[Math.max(1, initialCapacity)];
  }

  public void add(long value) {
    if (size == values.length) {
      int grown = (int) Math.min(Integer.MAX_VALUE - 8, (long) values.length * 2);
      if (grown <= size) {
        throw new IllegalStateException("LongList full at " + size + " entries");
      }
      values = Arrays.copyOf(values, grown);
    }
    values[size++] = value;
  }

  public long get(int index) {
    if (index >= size) {
      throw new IndexOutOfBoundsException(index);
    }
    return values[index];
  }

  public int size() {
    return size;
  }

  public void clear() {
    size = 0;
  }

  /** The backing array; entries at and past {@link #size()} are unspecified. */
  public long[] array() {
    return values;
  }

  /**
   * The first {@code count} of {@code hashes} without consecutive repeats (a key added twice in a
   * row), as RocksDB's filter builders drop them before solving a Ribbon or sizing a Bloom block: a
   * new array, or one of length {@code count} when nothing repeats.
   */
  public static long[] dedupConsecutive(long[] hashes, int count) {
    long[] out = new long[count];
    int n = 0;
    for (int i = 0; i < count; i++) {
      if (n == 0 || hashes[i] != out[n - 1]) {
        out[n++] = hashes[i];
      }
    }
    return n == count ? out : Arrays.copyOf(out, n);
  }
}
