package dev.sieve.range;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Crafted payloads of both range forms: every hostile header field and inconsistent data is a
 * {@link SieveFormatException} at the field's offset, before anything is allocated from it.
 */
class RangeFormTest {
  private static final long[] KEYS = new SplittableRandom(9).longs(300, 0, 1L << 30).toArray();

  private static byte[] grafite() {
    return GrafiteForm.write(
        GrafiteFilter.builder().maxRangeLength(64).fpRate(0.05).buildFromKeys(KEYS));
  }

  private static byte[] prefix() {
    return PrefixBloomForm.write(
        PrefixBloomRangeFilter.builder().maxRangeLength(64).bitsPerKey(12).buildFromKeys(KEYS));
  }

  private static void grafiteRejects(long offset, Consumer<ByteBuffer> edit) {
    byte[] b = grafite();
    edit.accept(ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN));
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> GrafiteForm.read(ByteBuffer.wrap(b)));
    assertEquals(offset, e.offset(), e.getMessage());
  }

  private static void prefixRejects(long offset, Consumer<ByteBuffer> edit) {
    byte[] b = prefix();
    edit.accept(ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN));
    for (boolean wrap : new boolean[] {false, true}) {
      SieveFormatException e =
          assertThrows(
              SieveFormatException.class, () -> PrefixBloomForm.read(ByteBuffer.wrap(b), wrap));
      assertEquals(offset, e.offset(), e.getMessage());
    }
  }

  @Test
  void grafiteRoundTripsAndRefusesCraftedFields() {
    byte[] b = grafite();
    GrafiteFilter back = GrafiteForm.read(ByteBuffer.wrap(b));
    for (long k : KEYS) {
      assertTrue(back.mayContainRange(k, k + 3));
    }
    grafiteRejects(0, bb -> bb.put(0, (byte) 1));
    grafiteRejects(1, bb -> bb.put(1, (byte) 9));
    grafiteRejects(4, bb -> bb.putInt(4, 1));
    grafiteRejects(24, bb -> bb.putLong(24, 0));
    grafiteRejects(24, bb -> bb.putLong(24, Long.MAX_VALUE));
    grafiteRejects(32, bb -> bb.putLong(32, 0));
    grafiteRejects(32, bb -> bb.putLong(32, -5));
    grafiteRejects(2, bb -> bb.put(2, (byte) 40));
    grafiteRejects(16, bb -> bb.putLong(16, Long.MAX_VALUE));
    grafiteRejects(16, bb -> bb.putLong(16, -1));
    grafiteRejects(8, bb -> bb.putLong(8, 1));
    grafiteRejects(3, bb -> bb.put(3, (byte) 61));
    // a huge code range with the same stored count: the data length no longer matches
    grafiteRejects(3, bb -> bb.putLong(24, bb.getLong(24) * 1024));
    // an extra one bit in the upper bits, the last upper bit, or low-bit padding
    grafiteRejects(
        48 + 8L * lowWords(b),
        bb ->
            bb.putLong(
                48 + 8 * lowWords(b),
                bb.getLong(48 + 8 * lowWords(b)) ^ 0x8000_0000_0000_0000L >>> 1));
    byte[] truncated = java.util.Arrays.copyOf(b, b.length - 8);
    assertThrows(SieveFormatException.class, () -> GrafiteForm.read(ByteBuffer.wrap(truncated)));
    assertThrows(SieveFormatException.class, () -> GrafiteForm.read(ByteBuffer.wrap(new byte[47])));
  }

  private static int lowWords(byte[] b) {
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    return (int) EliasFano.words(bb.getLong(16) * bb.get(3));
  }

  @Test
  void grafiteRefusesCodesOutOfOrder() {
    GrafiteFilter f =
        GrafiteFilter.builder()
            .maxRangeLength(4)
            .bitsPerKey(8)
            .buildFromKeys(new long[] {1, 9, 1 << 20, 1 << 30, 77});
    int m = (int) f.codes.n;
    assertTrue(m >= 2);
    byte[] b = GrafiteForm.write(f);
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int low = lowWords(b);
    for (int i = 0; i < low; i++) {
      bb.putLong(48 + 8 * i, 0); // every low part 0
    }
    int hi = 48 + 8 * low;
    bb.putLong(hi, (1L << m) - 1); // every code in the first bucket: m equal codes
    for (int i = hi + 8; i < b.length; i += 8) {
      bb.putLong(i, 0);
    }
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> GrafiteForm.read(ByteBuffer.wrap(b)));
    assertEquals(48, e.offset(), e.getMessage());
    assertTrue(e.getMessage().contains("not above"), e.getMessage());
  }

  @Test
  void prefixRoundTripsAndRefusesCraftedFields() {
    byte[] b = prefix();
    for (boolean wrap : new boolean[] {false, true}) {
      PrefixBloomRangeFilter back = PrefixBloomForm.read(ByteBuffer.wrap(b), wrap);
      for (long k : KEYS) {
        assertTrue(back.mayContainRange(k, k + 3));
      }
    }
    prefixRejects(0, bb -> bb.put(0, (byte) 1));
    prefixRejects(1, bb -> bb.put(1, (byte) 2));
    prefixRejects(2, bb -> bb.put(2, (byte) 63));
    prefixRejects(2, bb -> bb.put(2, (byte) -1));
    prefixRejects(5, bb -> bb.put(5, (byte) 1));
    prefixRejects(8, bb -> bb.putLong(8, -1));
    prefixRejects(8, bb -> bb.putLong(8, 1L << 41));
    prefixRejects(16, bb -> bb.putLong(16, 5));
    prefixRejects(16, bb -> bb.putLong(16, 300L * 8 + 1));
    byte[] header = java.util.Arrays.copyOf(b, 31);
    assertThrows(
        SieveFormatException.class, () -> PrefixBloomForm.read(ByteBuffer.wrap(header), false));
    // the Bloom block itself: a probe count of 0 in its trailer
    byte[] badTrailer = b.clone();
    badTrailer[badTrailer.length - 3] = 0;
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class,
            () -> PrefixBloomForm.read(ByteBuffer.wrap(badTrailer), false));
    assertTrue(e.offset() >= 32, e.getMessage());
  }
}
