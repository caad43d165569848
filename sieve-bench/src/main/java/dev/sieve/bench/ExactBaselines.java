package dev.sieve.bench;

import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.TreeSet;

/**
 * The exact baselines: sets with no false positives, the seed's HashSet / binary search / BTreeMap
 * rows in Java — {@code HashSet<Long>}, a sorted {@code long[]} with binary search, {@code
 * TreeSet<Long>} — and fastutil's primitive open-addressing {@code LongOpenHashSet}.
 */
public final class ExactBaselines {
  private ExactBaselines() {}

  /** All exact kinds. */
  public static List<StructureKind> kinds() {
    return List.of(
        new StructureKind(
            "java-hashset",
            Family.EXACT,
            "java.util.HashSet<Long> (boxed keys; size = measured heap)",
            false,
            (keys, b) -> BoxedHashSet.build(keys)),
        new StructureKind(
            "sorted-array",
            Family.EXACT,
            "sorted long[] with Arrays.binarySearch",
            false,
            (keys, b) -> SortedArray.build(keys)),
        new StructureKind(
            "java-treeset",
            Family.EXACT,
            "java.util.TreeSet<Long> (red-black tree; size = measured heap)",
            false,
            (keys, b) -> BoxedTreeSet.build(keys)),
        new StructureKind(
            "fastutil-hashset",
            Family.EXACT,
            "fastutil LongOpenHashSet (primitive open addressing, load 0.75)",
            false,
            (keys, b) -> PrimitiveHashSet.build(keys)));
  }

  static final class BoxedHashSet implements Membership {
    private final HashSet<Long> set;

    private BoxedHashSet(HashSet<Long> set) {
      this.set = set;
    }

    static BoxedHashSet build(long[] keys) {
      HashSet<Long> set =
          new HashSet<>((int) Math.min(Integer.MAX_VALUE - 8, keys.length / 0.75 + 1));
      for (long key : keys) {
        set.add(key);
      }
      return new BoxedHashSet(set);
    }

    @Override
    public boolean mayContain(long key) {
      return set.contains(key);
    }

    @Override
    public long sizeInBits() {
      return -1;
    }

    @Override
    public double modelFpRate() {
      return 0.0;
    }
  }

  static final class BoxedTreeSet implements Membership {
    private final TreeSet<Long> set;

    private BoxedTreeSet(TreeSet<Long> set) {
      this.set = set;
    }

    static BoxedTreeSet build(long[] keys) {
      TreeSet<Long> set = new TreeSet<>();
      for (long key : keys) {
        set.add(key);
      }
      return new BoxedTreeSet(set);
    }

    @Override
    public boolean mayContain(long key) {
      return set.contains(key);
    }

    @Override
    public long sizeInBits() {
      return -1;
    }

    @Override
    public double modelFpRate() {
      return 0.0;
    }
  }

  static final class SortedArray implements Membership {
    private final long[] sorted;

    private SortedArray(long[] sorted) {
      this.sorted = sorted;
    }

    static SortedArray build(long[] keys) {
      long[] sorted = keys.clone();
      Arrays.sort(sorted);
      return new SortedArray(sorted);
    }

    @Override
    public boolean mayContain(long key) {
      return Arrays.binarySearch(sorted, key) >= 0;
    }

    @Override
    public long sizeInBits() {
      return (long) sorted.length * Long.SIZE;
    }

    @Override
    public double modelFpRate() {
      return 0.0;
    }
  }

  static final class PrimitiveHashSet implements Membership {
    private final LongOpenHashSet set;

    private PrimitiveHashSet(LongOpenHashSet set) {
      this.set = set;
    }

    static PrimitiveHashSet build(long[] keys) {
      LongOpenHashSet set = new LongOpenHashSet(keys.length);
      for (long key : keys) {
        set.add(key);
      }
      return new PrimitiveHashSet(set);
    }

    @Override
    public boolean mayContain(long key) {
      return set.contains(key);
    }

    @Override
    public long sizeInBits() {
      return -1;
    }

    @Override
    public double modelFpRate() {
      return 0.0;
    }
  }
}
