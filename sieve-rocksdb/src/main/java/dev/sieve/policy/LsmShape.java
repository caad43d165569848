package dev.sieve.policy;

import java.util.Arrays;

/**
 * The shape of an LSM tree for {@link FilterPolicy#report}: for each level {@code 0 ..
 * numLevels-1}, the keys it holds and the filter probes it receives, and how many keys one SST's
 * filter holds (RocksDB builds one filter per SST file, or per partition).
 *
 * <p>Level 0 is taken to be made of memtable flushes (RocksDB's "level −1" for {@code
 * bloom_before_level}); level {@code i ≥ 1} of compaction outputs at level {@code i}.
 *
 * @param keysPerLevel keys held at each level, at least one level
 * @param probesPerLevel filter probes each level receives (a point lookup probes every overlapping
 *     L0 file, and one file per deeper level until the key is found)
 * @param keysPerFilter keys per SST filter, at least 1
 */
// arrays by design; equals/hashCode/toString are overridden over the contents
@SuppressWarnings("ArrayRecordComponent")
public record LsmShape(long[] keysPerLevel, long[] probesPerLevel, long keysPerFilter) {

  /**
   * Checks the shape and copies the arrays.
   *
   * @param keysPerLevel keys held per level, level 0 first
   * @param probesPerLevel filter probes per level
   * @param keysPerFilter keys per SST filter, at least 1
   */
  public LsmShape {
    if (keysPerLevel.length == 0 || keysPerLevel.length != probesPerLevel.length) {
      throw new IllegalArgumentException(
          "need the same positive number of levels for keys and probes, got "
              + keysPerLevel.length
              + " and "
              + probesPerLevel.length);
    }
    for (int i = 0; i < keysPerLevel.length; i++) {
      if (keysPerLevel[i] < 0 || probesPerLevel[i] < 0) {
        throw new IllegalArgumentException("negative keys or probes at level " + i);
      }
    }
    if (keysPerFilter < 1) {
      throw new IllegalArgumentException("keys per filter must be >= 1, got " + keysPerFilter);
    }
    keysPerLevel = keysPerLevel.clone();
    probesPerLevel = probesPerLevel.clone();
  }

  /**
   * A leveled LSM tree: the last level holds {@code lastLevelKeys}, each level above it {@code
   * fanout} times fewer down to level 1, and level 0 as many as level 1 (RocksDB's defaults size L1
   * like a full L0: four 64 MB flushes, 256 MB), SST filters of {@code keysPerFilter} keys, and
   * {@code lookups} point lookups of absent keys (the case filters are for): each probes every L0
   * file's filter and one filter on every deeper level.
   *
   * @param numLevels levels, 1 to 64
   * @param fanout the size ratio of neighbouring levels, at least 1
   * @param lastLevelKeys keys on the last level
   * @param keysPerFilter keys per SST filter, at least 1
   * @param lookups point lookups of absent keys
   * @return the shape
   */
  public static LsmShape leveled(
      int numLevels, double fanout, long lastLevelKeys, long keysPerFilter, long lookups) {
    if (numLevels < 1 || numLevels > 64) {
      throw new IllegalArgumentException("number of levels must be in [1, 64], got " + numLevels);
    }
    if (!(fanout >= 1.0)) {
      throw new IllegalArgumentException("fan-out must be >= 1, got " + fanout);
    }
    if (lastLevelKeys < 0 || lookups < 0 || keysPerFilter < 1) {
      throw new IllegalArgumentException("keys and lookups must be >= 0, keys per filter >= 1");
    }
    long[] keys = new long[numLevels];
    long[] probes = new long[numLevels];
    for (int i = 0; i < numLevels; i++) {
      int fromTop = numLevels - 1 - Math.max(i, Math.min(1, numLevels - 1));
      keys[i] = (long) (lastLevelKeys / Math.pow(fanout, fromTop));
      long filters = Math.max(1, (keys[i] + keysPerFilter - 1) / keysPerFilter);
      probes[i] = i == 0 ? lookups * filters : lookups;
    }
    return new LsmShape(keys, probes, keysPerFilter);
  }

  /** {@return the number of levels} */
  public int numLevels() {
    return keysPerLevel.length;
  }

  /** {@return a copy of the keys per level} */
  @Override
  public long[] keysPerLevel() {
    return keysPerLevel.clone();
  }

  /** {@return a copy of the filter probes per level} */
  @Override
  public long[] probesPerLevel() {
    return probesPerLevel.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LsmShape other
        && Arrays.equals(other.keysPerLevel, keysPerLevel)
        && Arrays.equals(other.probesPerLevel, probesPerLevel)
        && other.keysPerFilter == keysPerFilter;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(keysPerLevel) * 31
        + Arrays.hashCode(probesPerLevel)
        + Long.hashCode(keysPerFilter);
  }

  @Override
  public String toString() {
    return "LsmShape[keys="
        + Arrays.toString(keysPerLevel)
        + ", probes="
        + Arrays.toString(probesPerLevel)
        + ", keysPerFilter="
        + keysPerFilter
        + "]";
  }
}
