package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.registry.FilterType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The batch queries ({@link Filter#mayContainHashes}, {@link Filter#mayContainBatch}) against the
 * single-key path, for every filter type on the heap and wrapped from its container: the same
 * answer for every key (so no false negative: every added key answers "maybe"), the count, and the
 * unused bits of the last result word cleared. Arbitrary key counts, offsets and lengths.
 */
class BatchQueryPropertyTest {

  @Property(tries = 40)
  void batchesAnswerAsSingleLookups(
      @ForAll @IntRange(min = 0, max = 3000) int n,
      @ForAll @IntRange(min = 0, max = 200) int off,
      @ForAll @IntRange(min = 0, max = 700) int len,
      @ForAll long seed) {
    long[] keys = new SplittableRandom(seed).longs(n).toArray();
    for (FilterType type : TestTypes.builtIn()) {
      Filter filter = TestFilters.build(type, keys);
      checkAgainstSingle(filter, keys, off, len, seed);
      Filter wrapped = SieveFormat.wrap(ByteBuffer.wrap(SieveFormat.toBytes(filter)));
      checkAgainstSingle(wrapped, keys, off, len, seed);
    }
  }

  /** Every probe count of both Bloom filters (1 to 24), including the batches' k - 1 loops. */
  @Property(tries = 40)
  void bloomBatchesAtEveryProbeCount(
      @ForAll @DoubleRange(min = 1.0, max = 40.0) double bitsPerKey,
      @ForAll @IntRange(min = 1, max = 2000) int n,
      @ForAll long seed) {
    long[] keys = new SplittableRandom(seed).longs(n).toArray();
    checkAgainstSingle(
        BlockedBloomFilter.builder().bitsPerKey(bitsPerKey).build(keys), keys, 3, 500, seed);
    checkAgainstSingle(
        StandardBloomFilter.builder().bitsPerKey(bitsPerKey).build(keys), keys, 3, 500, seed);
  }

  @Test
  void rangesAreChecked() {
    Filter f = BlockedBloomFilter.builder().bitsPerKey(10).build(new long[] {1, 2, 3});
    long[] hashes = new long[100];
    assertThrows(
        IndexOutOfBoundsException.class, () -> f.mayContainHashes(hashes, 50, 51, new long[1]));
    assertThrows(
        IndexOutOfBoundsException.class, () -> f.mayContainHashes(hashes, 0, 65, new long[1]));
    assertThrows(
        IndexOutOfBoundsException.class, () -> f.mayContainBatch(hashes, -1, 5, new long[1]));
    assertEquals(0, f.mayContainHashes(hashes, 100, 0, new long[0]));
  }

  private static void checkAgainstSingle(Filter filter, long[] keys, int off, int len, long seed) {
    // the queries: the added keys first (all must answer maybe), then random ones
    SplittableRandom random = new SplittableRandom(seed ^ 0x5eed);
    long[] queries = new long[off + len];
    for (int i = 0; i < len; i++) {
      queries[off + i] = i < keys.length && i % 2 == 0 ? keys[i] : random.nextLong();
    }
    long[] hashes = new long[queries.length];
    byte[][] byteKeys = new byte[queries.length][];
    for (int i = 0; i < queries.length; i++) {
      hashes[i] = filter.keyScheme().hash(queries[i]); // as mayContain(long) hashes it
      byteKeys[i] = Long.toHexString(queries[i]).getBytes(StandardCharsets.UTF_8);
    }
    int words = (len + 63) >>> 6;
    long[] fromHashes = garbage(words + 1);
    long[] fromLongs = garbage(words + 1);
    long[] fromBytes = garbage(words + 1);
    int hashCount = filter.mayContainHashes(hashes, off, len, fromHashes);
    int longCount = filter.mayContainBatch(queries, off, len, fromLongs);
    int byteCount = filter.mayContainBatch(byteKeys, off, len, fromBytes);
    int expectedHash = 0;
    int expectedBytes = 0;
    for (int i = 0; i < len; i++) {
      boolean single = filter.mayContainHash(hashes[off + i]);
      assertEquals(single, filter.mayContain(queries[off + i]));
      String where = filter + " key " + i + " of " + len + " at offset " + off;
      assertEquals(single, bit(fromHashes, i), where + " (hashes)");
      assertEquals(single, bit(fromLongs, i), where + " (long keys)");
      boolean singleBytes = filter.mayContain(byteKeys[off + i]);
      assertEquals(singleBytes, bit(fromBytes, i), where + " (byte keys)");
      expectedHash += single ? 1 : 0;
      expectedBytes += singleBytes ? 1 : 0;
      if (i < keys.length && i % 2 == 0 && filter.numKeys() > 0) {
        assertTrue(single, "false negative for an added key: " + where);
      }
    }
    assertEquals(expectedHash, hashCount);
    assertEquals(expectedHash, longCount);
    assertEquals(expectedBytes, byteCount);
    if (len % 64 != 0) {
      long unused = -1L << (len % 64);
      assertEquals(0, fromHashes[words - 1] & unused, "unused result bits must be clear");
      assertEquals(0, fromLongs[words - 1] & unused, "unused result bits must be clear");
    }
    // the word past the last one needed is never written
    assertEquals(GARBAGE, fromHashes[words]);
    assertEquals(GARBAGE, fromLongs[words]);
  }

  private static final long GARBAGE = 0xDEADBEEFCAFEF00DL;

  private static long[] garbage(int words) {
    long[] out = new long[words];
    Arrays.fill(out, GARBAGE);
    return out;
  }

  private static boolean bit(long[] bits, int i) {
    return (bits[i >>> 6] >>> (i & 63) & 1) != 0;
  }
}
