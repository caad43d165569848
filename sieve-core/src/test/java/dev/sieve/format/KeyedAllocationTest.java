package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.KeyedFilter;
import dev.sieve.MutableFilter;
import dev.sieve.hash.KeyEncoder;
import dev.sieve.registry.FilterType;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Typed keys allocate nothing per key in the steady state: after a warm-up, 200,000 queries of
 * {@code String} keys (single, through {@link KeyedFilter}, and in batches, under the default
 * scheme and Parquet's), 200,000 of a custom-encoder key type and 20,000 adds of each (on the
 * mutable types) allocate less than 1 KiB in all, in the better of two measured rounds, where one
 * object per key would be at least 3 MiB (a Cuckoo table, filled in the first round, keeps failing
 * adds from the second on, which allocate nothing either). Measured per thread with {@code
 * com.sun.management.ThreadMXBean}, as {@code BatchAllocationTest} does.
 */
class KeyedAllocationTest {

  record Point(int x, int y, String label) {}

  static final KeyEncoder<Point> POINTS =
      (p, sink) -> sink.putInt(p.x()).putInt(p.y()).putUtf8(p.label());

  @ParameterizedTest
  @MethodSource("dev.sieve.format.TestTypes#builtIn") // foreign: ForeignContainerTest
  void stringAndEncodedKeysDoNotAllocatePerKey(FilterType type) {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    assumeTrue(
        bean instanceof com.sun.management.ThreadMXBean,
        "this JVM does not measure per-thread allocation");
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
    assumeTrue(threads.isThreadAllocatedMemorySupported(), "allocation measurement unsupported");
    threads.setThreadAllocatedMemoryEnabled(true);

    int n = 2000;
    String[] strings = new String[n];
    Point[] points = new Point[n];
    for (int i = 0; i < n; i++) {
      strings[i] = "key:" + i + (i % 5 == 0 ? "-é✓" : "") + "-".repeat(i % 90);
      points[i] = new Point(i, -i, strings[i]);
    }
    Filter filter = TestFilters.builder(type).build(strings);
    Filter wrapped = SieveFormat.wrap(ByteBuffer.wrap(SieveFormat.toBytes(filter)));
    KeyedFilter<CharSequence> typed = filter.keyed(KeyEncoder.UTF8);
    KeyedFilter<Point> typedPoints = wrapped.keyed(POINTS);
    Filter parquet = TestFilters.builder(type).keyScheme(KeyScheme.PARQUET_XXH64).build(strings);
    KeyedFilter<Long> parquetLongs = parquet.keyed(KeyEncoder.LONG);
    Long[] boxed = new Long[n];
    for (int i = 0; i < n; i++) {
      boxed[i] = (long) i;
    }
    // room for the 8n adds of the four rounds: a filter that keeps duplicates (the expandable
    // quotient filter) must not grow in the measured round, growth being an allocation by design
    MutableFilter mutable =
        type.isMutable() ? type.mutableBuilder().expectedKeys(10L * n).create() : null;
    long[] bits = new long[(n + 63) / 64];
    long sink = 0;
    long fewest = Long.MAX_VALUE;
    for (int round = 0; round < 4; round++) {
      long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
      for (int rep = 0; rep < 10; rep++) {
        for (int i = 0; i < n; i++) {
          sink += filter.mayContain(strings[i]) ? 1 : 0;
          sink += typed.mayContain(strings[i]) ? 1 : 0;
          sink += wrapped.mayContain(points[i], POINTS) ? 1 : 0;
          sink += typedPoints.mayContain(points[i]) ? 1 : 0;
          sink += parquet.mayContain(strings[i]) ? 1 : 0;
          sink += parquet.mayContain(points[i], POINTS) ? 1 : 0;
          sink += parquetLongs.mayContain(boxed[i]) ? 1 : 0;
        }
        sink += parquet.mayContainBatch(strings, 0, n, bits);
        sink += filter.mayContainBatch(strings, 0, n, bits);
        sink += typedPoints.mayContainBatch(points, 0, n, bits);
        if (mutable != null && rep == 0) {
          for (int i = 0; i < n; i++) {
            mutable.add(strings[i]);
            mutable.add(points[i], POINTS);
          }
        }
      }
      long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
      if (round >= 2) { // rounds 0 and 1 warm up (class loading, JIT, the per-thread buffers)
        fewest = Math.min(fewest, allocated);
      }
    }
    // the better of two measured rounds: an allocation per key shows in both (at least 3 MiB
    // each), while a one-off (a deoptimized method re-run in the interpreter until it is compiled
    // again, seen once when a new filter class was loaded) lands in one
    assertTrue(
        fewest < 1024,
        type + ": 200,000 typed queries allocated " + fewest + " bytes (best round)");
    assertTrue(sink > 0);
  }
}
