package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
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
    // the bare form carries no key scheme and reads back as XXPH3, so it is built under XXPH3
    ExpandableFilter f =
        ExpandableFilter.builder().fpRate(0.01).keyScheme(KeyScheme.XXPH3).create();
    for (int i = 0; i < keys; i++) {
      f.add((long) i);
    }
    return f;
  }

  @Test
  void aWrappedFilterReadsInPlaceAndIsReadOnly() {
    ExpandableFilter f = filter(300);
    byte[] form = ExpandablePayload.bytes(f);
    ByteBuffer direct = ByteBuffer.allocateDirect(form.length).put(form).flip();
    ExpandableFilter wrapped = ExpandableForm.read(direct, true);
    assertTrue(wrapped.isWrapped());
    assertEquals(f, wrapped);
    for (long i = 0; i < 300; i++) {
      assertTrue(wrapped.mayContain(i));
    }
    assertArrayEquals(form, ExpandablePayload.bytes(wrapped));
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
    ByteBuffer b = ByteBuffer.wrap(ExpandablePayload.bytes(f)).order(ByteOrder.LITTLE_ENDIAN);
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
    // the layouts before version 3 are refused by their version, not read as version 3
    assertTrue(refused(f, b -> b.put(1, (byte) 1)).contains("version 1 is not supported"));
    assertTrue(refused(f, b -> b.put(1, (byte) 2)).contains("version 2 is not supported"));
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
  void aRightSizedTableRoundTrips() {
    ExpandableFilter f =
        ExpandableFilter.builder().expectedKeys(5000).keyScheme(KeyScheme.XXPH3).create();
    for (long i = 0; i < 9000; i++) {
      f.add(i);
    }
    assertEquals(1, f.doublings());
    byte[] form = ExpandablePayload.bytes(f);
    ExpandableFilter back = ExpandableForm.read(ByteBuffer.wrap(form), false);
    assertEquals(f, back);
    ExpandableFilter wrapped =
        ExpandableForm.read(ByteBuffer.allocateDirect(form.length).put(form).flip(), true);
    for (long i = 0; i < 9000; i++) {
      assertTrue(back.mayContain(i) && wrapped.mayContain(i), "key " + i);
    }
    back.add(-1L);
    assertEquals(f.slots, back.slots);
  }

  @Test
  void theBlocksAreDecodedAsTheKernelWalksThem() {
    ExpandableFilter f = filter(1);
    int width = f.width;
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
    ExpandableFilter f =
        ExpandableFilter.builder().expectedKeys(220).keyScheme(KeyScheme.XXPH3).create();
    long n = f.slots;
    assertTrue(n % 64 != 0, n + " slots");
    int width = f.width;
    assertTrue(
        refused(f, b -> edit(b, w -> ExpandableSlots.setValue(w, width, n, 1)))
            .contains("past the last slot"));
    assertTrue(
        refused(f, b -> edit(b, w -> ExpandableSlots.setRunend(w, width, n, true)))
            .contains("past the last slot"));
  }

  private static long[] readWords(ExpandableFilter f) {
    return ExpandableForm.words(
        ByteBuffer.wrap(ExpandablePayload.bytes(f)).position(ExpandableForm.HEADER_BYTES).slice());
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
