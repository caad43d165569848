package dev.sieve.range;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
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
    for (boolean wrap : new boolean[] {false, true}) {
      SieveFormatException e =
          assertThrows(
              SieveFormatException.class, () -> GrafiteForm.read(ByteBuffer.wrap(b), wrap));
      assertEquals(offset, e.offset(), e.getMessage());
    }
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
    for (boolean wrap : new boolean[] {false, true}) {
      // a bare payload records no scheme (the container does): range queries need the keys' own
      GrafiteFilter back =
          GrafiteForm.read(ByteBuffer.wrap(b), wrap).withKeyScheme(KeyScheme.IDENTITY);
      assertEquals(wrap, back.isWrapped());
      for (long k : KEYS) {
        assertTrue(back.mayContainRange(k, k + 3));
      }
    }
    grafiteRejects(0, bb -> bb.put(0, (byte) 1));
    grafiteRejects(1, bb -> bb.put(1, (byte) 9));
    grafiteRejects(4, bb -> bb.putInt(4, 1));
    grafiteRejects(24, bb -> bb.putLong(24, 0));
    grafiteRejects(24, bb -> bb.putLong(24, Long.MAX_VALUE));
    grafiteRejects(32, bb -> bb.putLong(32, 0));
    grafiteRejects(32, bb -> bb.putLong(32, -5));
    grafiteRejects(2, bb -> bb.put(2, (byte) 5)); // below ceil(log2 64)
    grafiteRejects(2, bb -> bb.put(2, (byte) 63));
    grafiteRejects(2, bb -> bb.put(2, (byte) -1));
    grafiteRejects(16, bb -> bb.putLong(16, Long.MAX_VALUE));
    grafiteRejects(16, bb -> bb.putLong(16, -1));
    grafiteRejects(8, bb -> bb.putLong(8, 1));
    grafiteRejects(3, bb -> bb.put(3, (byte) 61));
    // a huge code range with the same stored count: the data length no longer matches
    grafiteRejects(3, bb -> bb.putLong(24, bb.getLong(24) * 1024));
    Layout at = layout(b);
    // a flipped bit in the first line's data: the next line's header no longer matches
    grafiteRejects(
        48 + 8L * (at.lines + 8),
        bb -> bb.putLong(48 + 8 * (at.lines + 1), bb.getLong(48 + 8 * (at.lines + 1)) ^ 1L << 62));
    // a line header that lies
    grafiteRejects(
        48 + 8L * (at.lines + 8),
        bb -> bb.putLong(48 + 8 * (at.lines + 8), bb.getLong(48 + 8 * (at.lines + 8)) + 1));
    grafiteRejects(48 + 8L * at.lines, bb -> bb.putLong(48 + 8 * at.lines, 1));
    // a select sample that names another line
    grafiteRejects(48 + 8L * at.samples, bb -> bb.putInt(48 + 8 * at.samples + 4, 0));
    grafiteRejects(
        48 + 8L * at.samples,
        bb -> bb.putInt(48 + 8 * at.samples + 4, bb.getInt(48 + 8 * at.samples + 4) + 1));
    // the unused half of the last sample word, where the count is odd
    long samples =
        EliasFanoCodec.samples(
            EliasFanoCodec.zeros(
                ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(24), b[3]));
    if (samples % 2 == 1) {
      int last = 48 + 8 * (at.samples + (int) (samples / 2));
      grafiteRejects(last, bb -> bb.putInt(last + 4, 1));
    }
    // bits past the last upper bit
    grafiteRejects(
        48 + 8L * (at.samples - 1),
        bb -> bb.putLong(48 + 8 * (at.samples - 1), bb.getLong(48 + 8 * (at.samples - 1)) | MSB));
    // the low bits' padding
    if (at.lowPadding) {
      grafiteRejects(
          48 + 8L * (at.lines - 1),
          bb -> bb.putLong(48 + 8 * (at.lines - 1), bb.getLong(48 + 8 * (at.lines - 1)) | MSB));
    }
    byte[] truncated = java.util.Arrays.copyOf(b, b.length - 8);
    assertThrows(SieveFormatException.class, () -> GrafiteForm.read(ByteBuffer.wrap(truncated)));
    assertThrows(SieveFormatException.class, () -> GrafiteForm.read(ByteBuffer.wrap(new byte[47])));
  }

  private static final long MSB = Long.MIN_VALUE;

  /** Where the sections of a version-2 payload start, in words past the header. */
  private record Layout(int lines, int samples, boolean lowPadding) {}

  private static Layout layout(byte[] b) {
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    long m = bb.getLong(16);
    int l = bb.get(3);
    long r = bb.getLong(24);
    int low = (int) EliasFanoCodec.words(m * l);
    long u = m + EliasFanoCodec.zeros(r, l);
    int lines = (int) EliasFanoCodec.lines(u);
    assertTrue(lines >= 2, "the test payload has two lines at least");
    assertTrue(u % EliasFano.LINE_BITS < EliasFano.LINE_BITS - 64, "the last data word unused");
    return new Layout(low, low + EliasFano.LINE_WORDS * lines, (m * l) % 64 != 0);
  }

  /**
   * A payload whose codes are all equal (every low part 0, every one in the first bucket), its line
   * headers and samples made consistent: refused for its order alone.
   */
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
    int low = (int) EliasFanoCodec.words((long) m * f.codes.lowBits);
    for (int i = 0; i < low; i++) {
      bb.putLong(48 + 8 * i, 0); // every low part 0
    }
    int line = 48 + 8 * low;
    bb.putLong(line, 0); // header of line 0: no zeros before it
    bb.putLong(line + 8, (1L << m) - 1); // every code in the first bucket: m equal codes
    assertEquals(1, f.codes.lines, "one line");
    // the one sample (zero 0 is in line 0) is 0 already
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> GrafiteForm.read(ByteBuffer.wrap(b)));
    assertEquals(48, e.offset(), e.getMessage());
    assertTrue(e.getMessage().contains("not above"), e.getMessage());
  }

  @Test
  void prefixRoundTripsAndRefusesCraftedFields() {
    byte[] b = prefix();
    for (boolean wrap : new boolean[] {false, true}) {
      PrefixBloomRangeFilter back =
          PrefixBloomForm.read(ByteBuffer.wrap(b), wrap).withKeyScheme(KeyScheme.IDENTITY);
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

  /** A mapped container file is checked and queried in place, answering as the heap filter. */
  @Test
  void grafiteMappedFileIsQueriedInPlace(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws java.io.IOException {
    GrafiteFilter f = GrafiteFilter.builder().maxRangeLength(64).fpRate(0.05).buildFromKeys(KEYS);
    java.nio.file.Path file = dir.resolve("g.sieve");
    java.nio.file.Files.write(file, dev.sieve.format.SieveFormat.toBytes(f));
    GrafiteFilter mapped = dev.sieve.format.SieveFormat.map(file, GrafiteFilter.class);
    assertTrue(mapped.isWrapped());
    assertEquals(f, mapped);
    assertEquals(f.sizeInBits(), mapped.sizeInBits());
    SplittableRandom rnd = new SplittableRandom(4);
    for (int i = 0; i < 20_000; i++) {
      long lo =
          i % 2 == 0
              ? KEYS[rnd.nextInt(KEYS.length)] + rnd.nextInt(-70, 70)
              : rnd.nextLong(1L << 31);
      long hi = lo + rnd.nextInt(200);
      assertEquals(f.mayContainRange(lo, hi), mapped.mayContainRange(lo, hi), lo + ".." + hi);
    }
  }
}
