package dev.sieve.sst;

import dev.sieve.sst.SstFilter.Partition;
import java.util.Arrays;
import java.util.List;

/**
 * A partitioned {@link SstFilter}'s operations over its partitions: the routing of a point lookup
 * to its partition by the table's key order (the class comment of {@link SstFilter} gives RocksDB's
 * rule, and why a timestamped separator can leave two candidates), and the sizes and rates summed
 * or weighted over the partitions.
 */
final class SstPartitions {
  private SstPartitions() {}

  /** The index of the first partition whose separator is at or after the key; else the last. */
  static int index(
      List<Partition> partitions,
      KeyComparator order,
      int separatorTimestampBytes,
      byte[] userKey) {
    int lo = 0;
    int hi = partitions.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (order.compare(separator(partitions, separatorTimestampBytes, mid), userKey) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return Math.min(lo, partitions.size() - 1);
  }

  /** Partition {@code i}'s separator without its timestamp. */
  private static byte[] separator(List<Partition> partitions, int separatorTimestampBytes, int i) {
    byte[] s = partitions.get(i).separatorUserKey();
    if (separatorTimestampBytes == 0 || s.length < separatorTimestampBytes) {
      return s;
    }
    return Arrays.copyOf(s, s.length - separatorTimestampBytes);
  }

  /** Whether partition {@code i}'s separator carries a timestamp above the minimum (all zeros). */
  private static boolean separatorHasNewerTimestamp(
      List<Partition> partitions, int separatorTimestampBytes, int i) {
    byte[] s = partitions.get(i).separatorUserKey();
    if (separatorTimestampBytes == 0 || s.length < separatorTimestampBytes) {
      return false;
    }
    for (int b = s.length - separatorTimestampBytes; b < s.length; b++) {
      if (s[b] != 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the partitions answer "maybe" for {@code probe} (the key or its prefix) of a lookup of
   * {@code userKey}: the routed partition, and the next where a timestamped separator equals the
   * key; every partition ORed where the key order is not known.
   */
  static boolean mayContain(
      List<Partition> partitions,
      KeyComparator order,
      int separatorTimestampBytes,
      byte[] userKey,
      byte[] probe) {
    if (!order.known()) {
      for (Partition p : partitions) {
        if (p.block().mayContain(probe)) {
          return true;
        }
      }
      return false;
    }
    int i = index(partitions, order, separatorTimestampBytes, userKey);
    if (partitions.get(i).block().mayContain(probe)) {
      return true;
    }
    // a separator with a newer timestamp than the read's sorts before an equal key
    return i + 1 < partitions.size()
        && separatorHasNewerTimestamp(partitions, separatorTimestampBytes, i)
        && order.compare(separator(partitions, separatorTimestampBytes, i), userKey) == 0
        && partitions.get(i + 1).block().mayContain(probe);
  }

  /** The partitions ORed for a hash (a legacy Bloom block, which cannot use it, says "maybe"). */
  static boolean mayContainHash(List<Partition> partitions, long hash64) {
    for (Partition p : partitions) {
      if (!p.block().hashesWithKeyHash() || p.block().mayContainHash(hash64)) {
        return true;
      }
    }
    return false;
  }

  /** The data bits of all partitions. */
  static long sizeInBits(List<Partition> partitions) {
    long bits = 0;
    for (Partition p : partitions) {
      bits += p.block().sizeInBits();
    }
    return bits;
  }

  /** The partitions' model rates weighted by their key counts. */
  static double modelledFpRate(List<Partition> partitions) {
    double weighted = 0;
    long keys = 0;
    for (Partition p : partitions) {
      weighted += p.block().numKeys() * p.block().modelledFpRate();
      keys += p.block().numKeys();
    }
    return keys == 0 ? 0.0 : weighted / keys;
  }

  /** The partitions' rates from their bits weighted by their estimated key counts. */
  static double expectedFpRate(List<Partition> partitions) {
    double weighted = 0;
    double keys = 0;
    for (Partition p : partitions) {
      double n = p.block().approximateElementCount();
      weighted += n * p.block().expectedFpRate();
      keys += n;
    }
    return keys == 0 ? 0.0 : weighted / keys;
  }
}
