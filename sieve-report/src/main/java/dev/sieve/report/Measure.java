package dev.sieve.report;

import dev.sieve.bench.Family;
import dev.sieve.bench.Membership;
import dev.sieve.bench.StructureKind;
import dev.sieve.bench.Workload;
import dev.sieve.bench.jmh.QueryBenchmark;
import java.lang.management.ManagementFactory;
import org.openjdk.jol.info.GraphLayout;

/**
 * The figures measured outside JMH, in the report's own JVM: size, retained heap, bytes allocated
 * by the build, reachable object count, false negatives over every key (the contract) and the
 * measured FPR over a stream of absent keys.
 */
public final class Measure {
  private Measure() {}

  /** Counting objects of a boxed set of millions of entries takes minutes; filters have few. */
  private static final int MAX_OBJECT_WALK_KEYS = 200_000;

  /**
   * Builds {@code kind} over the workload once and measures it.
   *
   * @param absentQueries absent keys to query for the FPR (exact sets get at most a tenth, at least
   *     10^5: they are exact by construction and slow)
   */
  public static Row measure(
      StructureKind kind, Workload workload, double bitsPerKey, long absentQueries) {
    Row row = new Row();
    row.name = kind.name();
    row.family = kind.family();
    row.description = kind.description();
    row.n = workload.size();
    row.bitsPerKeySetting = bitsPerKey;

    long heapBefore = usedHeapAfterGc();
    long allocBefore = threadAllocatedBytes();
    Membership m = kind.build(workload.keys(), bitsPerKey);
    long allocAfter = threadAllocatedBytes();
    long heapAfter = usedHeapAfterGc();
    row.buildAllocatedBytes = allocBefore < 0 ? -1 : allocAfter - allocBefore;
    row.retainedHeapBytes = Math.max(0, heapAfter - heapBefore);
    long bits = m.sizeInBits();
    if (bits < 0) {
      row.sizeBits = row.retainedHeapBytes * 8;
      row.sizeIsMeasuredHeap = true;
    } else {
      row.sizeBits = bits;
    }
    row.modelFpr = m.modelFpRate();
    if (kind.family() != Family.EXACT || workload.size() <= MAX_OBJECT_WALK_KEYS) {
      row.objectCount = objectCount(m.root());
    }
    if (kind.family() == Family.LIMIT) {
      return row; // not a set: no contract, no FPR
    }
    // The contract through mayContainBatch, the path the row is timed on: a -batch row's false
    // negatives are those of the filter's batch API.
    long[] keys = workload.keys();
    long falseNegatives = 0;
    for (int off = 0; off < keys.length; off += QueryBenchmark.BATCH) {
      int len = Math.min(QueryBenchmark.BATCH, keys.length - off);
      falseNegatives += len - m.mayContainBatch(keys, off, len);
    }
    row.falseNegatives = falseNegatives;
    long queries =
        kind.family() == Family.EXACT ? Math.max(100_000, absentQueries / 10) : absentQueries;
    Workload.AbsentKeys absent = workload.absentKeys(7);
    long asked = 0;
    long fp = 0;
    for (long i = 0; i < queries; i++) {
      long key = absent.nextUnchecked();
      if (m.mayContain(key)) {
        if (workload.contains(key)) {
          continue; // a present key drawn by chance: not an absent query
        }
        fp++;
      }
      asked++;
    }
    row.absentQueried = asked;
    row.falsePositives = fp;
    return row;
  }

  static {
    // JOL cannot read field offsets of hidden classes (a lambda held by a filter) the default
    // way; its "magic" offsets can. Set before JOL's first use; an explicit -D wins.
    if (System.getProperty("jol.magicFieldOffset") == null) {
      System.setProperty("jol.magicFieldOffset", "true");
    }
  }

  /**
   * Objects reachable from {@code root} (JOL), or {@code -1} when JOL cannot walk the graph (the
   * report then shows no count rather than failing).
   */
  static long objectCount(Object root) {
    try {
      return GraphLayout.parseInstance(root).totalCount();
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** Bytes allocated so far by this thread, or -1 where the JVM does not count. */
  static long threadAllocatedBytes() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    if (bean instanceof com.sun.management.ThreadMXBean sun
        && sun.isThreadAllocatedMemorySupported()) {
      return sun.getThreadAllocatedBytes(Thread.currentThread().getId());
    }
    return -1;
  }

  /** Used heap after two full collections. */
  static long usedHeapAfterGc() {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 2; i++) {
      System.gc();
    }
    return rt.totalMemory() - rt.freeMemory();
  }
}
