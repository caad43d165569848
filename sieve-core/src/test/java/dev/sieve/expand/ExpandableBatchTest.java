package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.format.SieveFormat;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The batch form of {@link ExpandableFilter} ({@code mayContainHashes}, two passes per chunk of 64)
 * against its single lookup and against the first kernel's walk ({@link ExpandableProbeOracle}),
 * hash by hash: while a filter grows from its smallest table through several doublings, with and
 * without a hint (a slot count that is not a power of two), at a high rate whose fingerprints run
 * out (void entries), after removes, on the heap and wrapped from a buffer; ranges that start
 * inside the array and end inside a chunk; the key-level batch on top of it.
 */
class ExpandableBatchTest {

  private static void compare(
      ExpandableFilter f, long[] hashes, SplittableRandom rnd, String where) {
    int off = rnd.nextInt(7);
    int len = hashes.length - off - rnd.nextInt(7);
    long[] bits = new long[(len + 63) >>> 6];
    java.util.Arrays.fill(bits, -1L); // bits past len must come back cleared
    int count = f.mayContainHashes(hashes, off, len, bits);
    int want = 0;
    ExpandableSlots.Words t =
        f.isWrapped()
            ? new ExpandableSlots.Buffer(
                ByteBuffer.wrap(toBytes(ExpandableOps.heapWords(f)))
                    .order(java.nio.ByteOrder.LITTLE_ENDIAN))
            : new ExpandableSlots.Heap(f.words);
    for (int i = 0; i < bits.length * 64; i++) {
      boolean got = (bits[i >>> 6] >>> (i & 63) & 1) != 0;
      if (i >= len) {
        assertEquals(false, got, where + ": bit " + i + " past the range");
        continue;
      }
      long h = hashes[off + i];
      boolean single = f.mayContainHash(h);
      assertEquals(single, got, where + ": hash " + (off + i));
      // a doubling under way: the old table's run too, for quotients from its cursor on
      ExpandableMigration m = f.migration;
      boolean inOld =
          m != null
              && ExpandableKernel.quotient(h, m.oldSlots) >= m.cursor
              && ExpandableProbeOracle.mayContain(m.old, m.oldSlots, m.oldWidth, h);
      assertEquals(
          inOld || ExpandableProbeOracle.mayContain(t, f.slots, f.width, h),
          single,
          where + " oracle");
      want += single ? 1 : 0;
    }
    assertEquals(want, count, where + ": the count");
  }

  private static byte[] toBytes(long[] words) {
    ByteBuffer b = ByteBuffer.allocate(words.length * 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    b.asLongBuffer().put(words);
    return b.array();
  }

  private static long[] mixed(long[] present, int count, SplittableRandom rnd) {
    long[] out = new long[2 * count];
    for (int i = 0; i < count; i++) {
      out[2 * i] = present[rnd.nextInt(present.length)];
      out[2 * i + 1] = rnd.nextLong();
    }
    return out;
  }

  private static void growRemoveWrap(ExpandableFilter f, int keys, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] present = new long[keys];
    int lastLog = f.log;
    for (int i = 0; i < keys; i++) {
      present[i] = rnd.nextLong();
      f.addHash(present[i]);
      if (f.log != lastLog || i == keys - 1) {
        lastLog = f.log;
        long[] sample = java.util.Arrays.copyOf(present, i + 1);
        compare(f, mixed(sample, 700, rnd), rnd, "grown to " + (i + 1) + " keys, " + f);
      }
    }
    // every present key answers yes in the batch
    long[] bits = new long[(keys + 63) >>> 6];
    assertEquals(keys, f.mayContainHashes(present, 0, keys, bits), "no false negative");
    // remove every third key: the others stay present
    for (int i = 0; i < keys; i += 3) {
      assertTrue(f.removeHash(present[i]));
    }
    long[] kept = new long[keys - (keys + 2) / 3];
    for (int i = 0, k = 0; i < keys; i++) {
      if (i % 3 != 0) {
        kept[k++] = present[i];
      }
    }
    assertEquals(kept.length, f.mayContainHashes(kept, 0, kept.length, bits), "after removes");
    compare(f, mixed(present, 3000, rnd), rnd, "after removes, " + f);
    // wrapped from a buffer (heap and direct): the same answers, read in place
    byte[] form = SieveFormat.toBytes(f);
    for (ByteBuffer buffer :
        new ByteBuffer[] {
          ByteBuffer.wrap(form), ByteBuffer.allocateDirect(form.length).put(form).flip()
        }) {
      ExpandableFilter wrapped = SieveFormat.wrap(buffer, ExpandableFilter.class);
      assertTrue(wrapped.isWrapped());
      assertEquals(kept.length, wrapped.mayContainHashes(kept, 0, kept.length, bits), "wrapped");
      compare(wrapped, mixed(present, 3000, rnd), rnd, "wrapped, " + f);
    }
  }

  @Test
  void growingWithoutAHint() {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    growRemoveWrap(f, 60_000, 1);
    assertTrue(f.doublings() >= 9, f.toString());
  }

  @Test
  void hintedSlotCountsThatAreNotPowersOfTwo() {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.001).expectedKeys(3_000).create();
    assertTrue(Long.bitCount(f.slots) > 1, f.toString());
    growRemoveWrap(f, 20_000, 2);
  }

  @Test
  void voidEntriesAtAHighRate() {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.1).create();
    growRemoveWrap(f, 40_000, 3);
    assertTrue(f.voidEntries() > 0, "void entries: " + f);
  }

  @Test
  void keyBatchesGoThroughTheBatchForm() {
    ExpandableFilter f = ExpandableFilter.builder().create();
    for (long k = 0; k < 5_000; k++) {
      f.add(k * 3);
    }
    long[] keys = new long[3 * 5_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i;
    }
    long[] bits = new long[(keys.length + 63) >>> 6];
    int count = f.mayContainBatch(keys, 0, keys.length, bits);
    int want = 0;
    for (int i = 0; i < keys.length; i++) {
      boolean single = f.mayContain(keys[i]);
      assertEquals(single, (bits[i >>> 6] >>> (i & 63) & 1) != 0, "key " + i);
      assertTrue(single || i % 3 != 0, "added key " + i);
      want += single ? 1 : 0;
    }
    assertEquals(want, count);
  }
}
