package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The form ({@link ExpandableForm}): a wrapped filter reads its buffer in place and is read-only,
 * and each header field and structural rule of the slots is refused with a typed error naming it.
 */
class ExpandableFormTest {

  private static ExpandableFilter filter(int keys) {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    for (int i = 0; i < keys; i++) {
      f.add((long) i);
    }
    return f;
  }

  @Test
  void aWrappedFilterReadsInPlaceAndIsReadOnly() {
    ExpandableFilter f = filter(300);
    byte[] form = f.toByteArray();
    ByteBuffer direct = ByteBuffer.allocateDirect(form.length).put(form).flip();
    ExpandableFilter wrapped = ExpandableForm.read(direct, true);
    assertTrue(wrapped.isWrapped());
    assertEquals(f, wrapped);
    for (long i = 0; i < 300; i++) {
      assertTrue(wrapped.mayContain(i));
    }
    assertArrayEquals(form, wrapped.toByteArray());
    assertThrows(UnsupportedOperationException.class, () -> wrapped.add(1L));
    assertThrows(UnsupportedOperationException.class, () -> wrapped.remove(1L));
    assertThrows(UnsupportedOperationException.class, () -> wrapped.union(f));
    ExpandableFilter copy = wrapped.copy();
    assertFalse(copy.isWrapped());
    copy.union(wrapped); // a wrapped filter is read as the other side
    assertTrue(copy.add(-1L));
    assertEquals(600 + 1, copy.numKeys());
  }

  private static String refused(ExpandableFilter f, Consumer<ByteBuffer> edit) {
    ByteBuffer b = ByteBuffer.wrap(f.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
    edit.accept(b);
    return assertThrows(SieveFormatException.class, () -> ExpandableForm.read(b, false))
        .getMessage();
  }

  @Test
  void eachFieldIsCheckedAgainstItsLimit() {
    ExpandableFilter f = filter(40);
    assertTrue(refused(f, b -> b.put(0, (byte) 0x31)).contains("type tag"));
    assertTrue(refused(f, b -> b.put(1, (byte) 4)).contains("version 4"));
    assertTrue(refused(f, b -> b.put(2, (byte) 40)).contains("log2 of the slots"));
    assertTrue(refused(f, b -> b.put(3, (byte) 5)).contains("starting slots"));
    assertTrue(refused(f, b -> b.put(4, (byte) 60)).contains("slot width"));
    assertTrue(refused(f, b -> b.put(5, (byte) 1)).contains("mant"));
    assertTrue(refused(f, b -> b.put(6, (byte) 0)).contains("fingerprint length"));
    assertTrue(refused(f, b -> b.put(6, (byte) 60)).contains("fingerprint length"));
    assertTrue(refused(f, b -> b.put(6, (byte) 10)).contains("slot width"));
    assertTrue(refused(f, b -> b.put(7, (byte) 1)).contains("reserved"));
    // version 1 had bytes 5 to 7 reserved
    assertTrue(refused(f, b -> b.put(1, (byte) 1)).contains("reserved byte 6"));
    assertTrue(refused(f, b -> b.putDouble(8, 0.5)).contains("target rate"));
    assertTrue(refused(f, b -> b.putDouble(8, Double.NaN)).contains("target rate"));
    assertTrue(refused(f, b -> b.putLong(16, Long.MAX_VALUE)).contains("entries"));
    assertTrue(refused(f, b -> b.putLong(16, 41)).contains("the slots hold 40"));
    // the key count may exceed the entries (adds past a run's bound on equal entries), not 0
    assertTrue(refused(f, b -> b.putLong(24, -1)).contains("key count"));
    // the size is checked before any allocation: 2^32 slots over 40 bytes of table
    assertTrue(refused(f, b -> b.put(2, (byte) 32).put(3, (byte) 32)).contains("(truncated)"));
  }

  @Test
  void aVersionOnePayloadReadsWithTheFixedSchedule() {
    ExpandableFilter f = filter(40); // 64 slots, 9-bit fingerprints: the fixed schedule's too
    assertEquals(ExpandableForm.VERSION, f.toByteArray()[1]);
    ExpandableFilter old = ExpandableForm.read(ByteBuffer.wrap(legacyForm(f, 1)), false);
    assertEquals(f, old);
    assertEquals(ExpandableMath.fingerprintBits(0.01, 0), old.fingerprintBits());
  }

  /**
   * Versions 1 and 2 (slots packed one after another, occupied and continuation bits) convert on
   * read into the block layout, wrapped too (then on the heap: a copy), and write back as version
   * 3; tables that wrap round their last slot and of any slot count.
   */
  @Test
  void versionTwoPayloadsConvertOnRead() {
    for (int keys : new int[] {0, 1, 54, 5000}) {
      ExpandableFilter f =
          keys == 5000 ? ExpandableFilter.builder().expectedKeys(300).create() : filter(keys);
      for (long i = 0; i < keys; i++) {
        f.add(i * 0x9E3779B97F4A7C15L);
      }
      byte[] v2 = legacyForm(f, 2);
      ExpandableFilter heap = ExpandableForm.read(ByteBuffer.wrap(v2), false);
      ExpandableFilter wrapped =
          ExpandableForm.read(ByteBuffer.allocateDirect(v2.length).put(v2).flip(), true);
      assertFalse(wrapped.isWrapped(), "an old version is converted onto the heap");
      assertEquals(f, heap);
      assertEquals(f, wrapped);
      assertArrayEquals(f.toByteArray(), heap.toByteArray());
      for (long i = 0; i < keys; i++) {
        assertTrue(heap.mayContain(i * 0x9E3779B97F4A7C15L));
      }
    }
  }

  /** The form of {@code f} in the layout of versions 1 and 2 (for the readers of old forms). */
  static byte[] legacyForm(ExpandableFilter f, int version) {
    long n = f.slots();
    int width = f.slotBits();
    long[] old = new long[(int) ((n * width + 63) >>> 6)];
    long[] base = {-1};
    long[] pos = {0};
    ExpandableSlots.Words t = new ExpandableSlots.Heap(f.heapWords());
    ExpandableKernel.forEachRun(
        t,
        n,
        width,
        (q, first, length) -> {
          if (base[0] < 0) {
            base[0] = q;
          }
          pos[0] = Math.max(pos[0], Math.floorMod(q - base[0], n));
          legacySet(old, width, q, legacyGet(old, width, q) | 1);
          for (int k = 0; k < length; k++) {
            long at = (base[0] + pos[0]) % n;
            long v = ExpandableKernel.valueAt(t, width, (first + k) % n);
            legacySet(old, width, at, (legacyGet(old, width, at) & 1) | (k > 0 ? 2 : 0) | v << 2);
            pos[0]++;
          }
        });
    ByteBuffer b = ByteBuffer.wrap(f.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer out =
        ByteBuffer.allocate(ExpandableForm.HEADER_BYTES + old.length * Long.BYTES)
            .order(ByteOrder.LITTLE_ENDIAN);
    out.put(b.array(), 0, ExpandableForm.HEADER_BYTES);
    out.put(1, (byte) version);
    if (version == 1) {
      out.put(5, (byte) 0).put(6, (byte) 0);
    }
    out.position(ExpandableForm.HEADER_BYTES);
    for (long w : old) {
      out.putLong(w);
    }
    return out.array();
  }

  private static long legacyGet(long[] t, int width, long i) {
    long v = 0;
    for (int k = 0; k < width; k++) {
      long bit = i * width + k;
      v |= (t[(int) (bit >>> 6)] >>> (bit & 63) & 1) << k;
    }
    return v;
  }

  private static void legacySet(long[] t, int width, long i, long value) {
    for (int k = 0; k < width; k++) {
      long bit = i * width + k;
      long m = 1L << (bit & 63);
      t[(int) (bit >>> 6)] =
          (value >>> k & 1) != 0 ? t[(int) (bit >>> 6)] | m : t[(int) (bit >>> 6)] & ~m;
    }
  }

  /**
   * The golden containers of payload version 1 (1024 slots for 500 keys, the fixed widening) and
   * version 2 (before the block layout: 39 mant, 9-bit fingerprints) still read, heap and wrapped
   * (converted on read, so the wrap copies), answer as recorded, and round-trip as version 3 to an
   * equal filter.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2})
  void theOldGoldenFilesStillReadAndAnswerAsRecorded(int version) throws java.io.IOException {
    byte[] legacy = golden("expandable-payload-v" + version + ".sieve");
    String recorded =
        new String(
                golden("expandable-payload-v" + version + ".answers"),
                java.nio.charset.StandardCharsets.US_ASCII)
            .split("\n")[1].trim();
    long[] queries = new long[recorded.length()];
    for (int i = 0; i < 500; i++) {
      queries[i] = 0x5EED_0000L + 977L * i; // GoldenFiles.builtKeys()
    }
    for (int i = 500; i < queries.length; i++) {
      queries[i] = i * 0xD6E8FEB86659FD93L + 12345; // GoldenFiles.queryKeys()
    }
    for (ExpandableFilter f :
        new ExpandableFilter[] {
          dev.sieve.format.SieveFormat.read(legacy, ExpandableFilter.class),
          dev.sieve.format.SieveFormat.wrap(ByteBuffer.wrap(legacy), ExpandableFilter.class)
        }) {
      assertEquals(version == 1 ? 1024 : 295 * 2, f.slots());
      for (int i = 0; i < queries.length; i++) {
        assertEquals(recorded.charAt(i) == '1', f.mayContain(queries[i]), "query " + i);
      }
      byte[] again = dev.sieve.format.SieveFormat.toBytes(f);
      ExpandableFilter back = dev.sieve.format.SieveFormat.read(again, ExpandableFilter.class);
      assertEquals(f.copy(), back);
      assertEquals(ExpandableForm.VERSION, f.toByteArray()[1]);
    }
  }

  private static byte[] golden(String name) throws java.io.IOException {
    try (java.io.InputStream in =
        dev.sieve.format.SieveFormat.class.getResourceAsStream("golden/" + name)) {
      return in.readAllBytes();
    }
  }

  @Test
  void aRightSizedTableRoundTrips() {
    ExpandableFilter f = ExpandableFilter.builder().expectedKeys(5000).create();
    for (long i = 0; i < 9000; i++) {
      f.add(i);
    }
    assertEquals(1, f.doublings());
    byte[] form = f.toByteArray();
    ExpandableFilter back = ExpandableForm.read(ByteBuffer.wrap(form), false);
    assertEquals(f, back);
    ExpandableFilter wrapped =
        ExpandableForm.read(ByteBuffer.allocateDirect(form.length).put(form).flip(), true);
    for (long i = 0; i < 9000; i++) {
      assertTrue(back.mayContain(i) && wrapped.mayContain(i), "key " + i);
    }
    back.add(-1L);
    assertEquals(f.slots(), back.slots());
  }

  @Test
  void theBlocksAreDecodedAsTheKernelWalksThem() {
    ExpandableFilter f = filter(1);
    int width = f.slotBits();
    ExpandableSlots.Words t = new ExpandableSlots.Heap(readWords(f));
    long q = -1;
    for (long i = 0; i < 64; i++) {
      if (ExpandableSlots.value(t, width, i) != 0) {
        q = i;
      }
    }
    long slot = q;
    // the single entry: clear its occupied bit (a run without its canonical slot)
    assertTrue(
        refused(f, b -> edit(b, w -> ExpandableSlots.setOccupied(w, width, slot, false)))
            .contains("before its"));
    // clear its run end: the cluster's run never ends
    assertTrue(
        refused(f, b -> edit(b, w -> ExpandableSlots.setRunend(w, width, slot, false)))
            .contains("run ends"));
    // an empty slot with its occupied bit
    long other = (slot + 5) & 63;
    assertTrue(
        refused(f, b -> edit(b, w -> ExpandableSlots.setOccupied(w, width, other, true)))
            .contains("empty slot"));
    // a wrong offset
    assertTrue(
        refused(f, b -> edit(b, w -> ExpandableSlots.setOffset(w, width, 0, 3)))
            .contains("offset"));
  }

  @Test
  void slotsPastTheLastOfAPartialBlockMustBeEmpty() {
    ExpandableFilter f = ExpandableFilter.builder().expectedKeys(220).create();
    long n = f.slots();
    assertTrue(n % 64 != 0, n + " slots");
    int width = f.slotBits();
    assertTrue(
        refused(f, b -> edit(b, w -> ExpandableSlots.setValue(w, width, n, 1)))
            .contains("past the last slot"));
    assertTrue(
        refused(f, b -> edit(b, w -> ExpandableSlots.setRunend(w, width, n, true)))
            .contains("past the last slot"));
  }

  private static long[] readWords(ExpandableFilter f) {
    return ExpandableForm.words(
        ByteBuffer.wrap(f.toByteArray()).position(ExpandableForm.HEADER_BYTES).slice());
  }

  private static void edit(ByteBuffer b, Consumer<long[]> edit) {
    ByteBuffer data = b.duplicate().position(ExpandableForm.HEADER_BYTES).slice();
    long[] words = ExpandableForm.words(data);
    edit.accept(words);
    for (int w = 0; w < words.length; w++) {
      b.putLong(ExpandableForm.HEADER_BYTES + w * Long.BYTES, words[w]);
    }
  }
}
