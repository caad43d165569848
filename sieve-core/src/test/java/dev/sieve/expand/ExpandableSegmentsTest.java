package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import dev.sieve.SieveFormatException;
import dev.sieve.hash.KeyHash;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The expandable form mapped past one buffer ({@link ExpandableForm#map}): the table in segments of
 * {@code 2^shift} bytes, forced small here (8 bytes to 4 KiB; no segment size is a multiple of a
 * 64-slot block's {@code 64 · width + 16} bits), so that blocks, their metadata words and runs lie
 * across segment boundaries. Every answer of the mapped filter is the heap filter's (the keys
 * added, including every key whose run or block metadata crosses a boundary, and random hashes),
 * its bytes written back are the file's, and bad input is refused with a typed error at the file
 * offset. The real size (a payload past 2 GiB, 1 GiB segments) is {@code
 * dev.sieve.format.ExpandableMappedOver2GiBScaleTest}'s (tag {@code scale}).
 */
class ExpandableSegmentsTest {
  /** Bytes before the payload in the file, so that no word is 8-byte aligned in the file. */
  private static final int PREFIX = 13;

  @TempDir Path dir;

  private static ExpandableFilter grown(
      double fpRate, long hint, int keys, int removes, long seed) {
    // the bare form carries no key scheme and reads back as XXPH3, so it is built under XXPH3
    ExpandableFilterBuilder b =
        ExpandableFilter.builder().fpRate(fpRate).keyScheme(KeyScheme.XXPH3);
    if (hint > 0) {
      b.expectedKeys(hint);
    }
    ExpandableFilter f = b.create();
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < keys; i++) {
      f.addHash(r.nextLong());
    }
    SplittableRandom again = new SplittableRandom(seed);
    for (int i = 0; i < removes; i++) {
      assertTrue(f.removeHash(again.nextLong()));
    }
    return f;
  }

  /** The form of {@code f} streamed into a file after {@link #PREFIX} bytes. */
  private Path file(ExpandableFilter f) throws IOException {
    return file(f, Files.createTempFile(dir, "expandable", ".form"));
  }

  private static Path file(ExpandableFilter f, Path file) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[PREFIX]);
    ExpandablePayload.write(f, Channels.newChannel(out));
    Files.write(file, out.toByteArray());
    return file;
  }

  private static ExpandableFilter map(Path file, int shift) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      return ExpandableForm.map(ch, PREFIX, ch.size() - PREFIX, shift);
    }
  }

  /** {@return the word of bit {@code pos} of the table} */
  private static long word(long pos) {
    return pos >>> 6;
  }

  /**
   * {@return whether a query for {@code hash} reads words of two segments of {@code 2^shift} bytes:
   * its block's metadata and its run's values}
   */
  static boolean crosses(ExpandableFilter f, long hash, int shift) {
    long n = f.slots;
    int w = f.width;
    ExpandableSlots.Heap t = f.heap;
    long q = ExpandableKernel.quotient(hash, n);
    long b = q >>> 6;
    long lo = word(ExpandableSlots.base(b, w));
    long hi = word(ExpandableSlots.base(b, w) + ExpandableSlots.VALUES_AT - 1);
    if (ExpandableSlots.occupied(t, w, q)) {
      long end = ExpandableRank.runEnd(t, n, w, q);
      long i = end;
      while (i != q && !ExpandableSlots.runend(t, w, ExpandableKernel.prev(i, n))) {
        i = ExpandableKernel.prev(i, n);
      }
      for (long s : new long[] {i, end}) {
        long at = ExpandableSlots.base(s >>> 6, w) + ExpandableSlots.VALUES_AT + (s & 63) * (w - 2);
        lo = Math.min(lo, word(at));
        hi = Math.max(hi, word(at + w - 3));
      }
    }
    int wordShift = shift - 3;
    return (lo >>> wordShift) != (hi >>> wordShift);
  }

  /** Maps {@code f} at {@code shift} and checks every answer against the heap filter. */
  private void checkMapped(ExpandableFilter f, int shift, long[] present, long seed)
      throws IOException {
    Path file = file(f);
    ExpandableFilter mapped = map(file, shift);
    assertTrue(mapped.isWrapped());
    long bytes = Files.size(file) - PREFIX;
    assertTrue(
        bytes - ExpandableForm.HEADER_BYTES > 2L << shift,
        "at least three segments: " + bytes + " bytes at shift " + shift);
    assertEquals(f, mapped);
    assertEquals(f.numKeys(), mapped.numKeys());
    assertEquals(f.sizeInBits(), mapped.sizeInBits());
    assertEquals(f.modelledFpRate(), mapped.modelledFpRate());
    int crossing = 0;
    for (long h : present) {
      assertTrue(mapped.mayContainHash(h), "false negative in the mapped filter");
      if (crosses(f, h, shift)) {
        crossing++;
      }
    }
    assertTrue(crossing > 0, "no key's query crosses a segment boundary at shift " + shift);
    SplittableRandom r = new SplittableRandom(seed);
    int crossingAbsent = 0;
    for (int i = 0; i < 10_000; i++) {
      long h = r.nextLong();
      assertEquals(f.mayContainHash(h), mapped.mayContainHash(h), "hash " + h);
      crossingAbsent += crosses(f, h, shift) ? 1 : 0;
    }
    assertTrue(crossingAbsent > 0);
    // written back: the same bytes, by the streamed write and the array
    byte[] form = Files.readAllBytes(file);
    byte[] payload = java.util.Arrays.copyOfRange(form, PREFIX, form.length);
    assertArrayEquals(payload, ExpandablePayload.bytes(mapped));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ExpandablePayload.write(mapped, Channels.newChannel(out));
    assertArrayEquals(payload, out.toByteArray());
    assertEquals(payload.length, new ExpandablePayload().payloadLength(mapped));
    // read-only; its copy is a mutable heap filter equal to it
    assertThrows(UnsupportedOperationException.class, () -> mapped.addHash(1));
    ExpandableFilter copy = mapped.copy();
    assertFalse(copy.isWrapped());
    assertEquals(f, copy);
  }

  private static long[] hashes(int keys, int removes, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      long h = r.nextLong();
      if (i >= removes) {
        out.add(h);
      }
    }
    return out.stream().mapToLong(Long::longValue).toArray();
  }

  @Test
  void grownFiltersMapInSmallSegmentsAndAnswerAsOnTheHeap() throws IOException {
    // grown from 64 slots (widened slots), from a hint (mant > 0), with removes; 1% and 0.1%
    Object[][] cases = {
      {0.01, 0L, 20_000, 0}, {0.01, 5_000L, 12_000, 3_000}, {0.001, 0L, 9_000, 1_000},
    };
    long seed = 1;
    for (Object[] c : cases) {
      int keys = (int) c[2];
      int removes = (int) c[3];
      ExpandableFilter f = grown((double) c[0], (long) c[1], keys, removes, seed);
      long[] present = hashes(keys, removes, seed);
      for (int shift : new int[] {3, 6, 9, 12}) {
        checkMapped(f, shift, present, seed * 31 + shift);
      }
      seed++;
    }
  }

  /**
   * A random sweep: filters of random target rate, hint, size and removes, mapped in segments of
   * random size, answer every key and 20,000 random hashes as the heap filter does.
   */
  @Property(tries = 20)
  void anyFilterMappedInAnySegmentSizeAnswersAsTheHeapFilter(
      @ForAll @IntRange(min = 0, max = 2) int rate,
      @ForAll @IntRange(min = 0, max = 6_000) int keys,
      @ForAll @IntRange(min = 0, max = 100) int removedPercent,
      @ForAll boolean hinted,
      @ForAll @IntRange(min = 3, max = 12) int shift,
      @ForAll long seed)
      throws IOException {
    double fpRate = new double[] {0.05, 0.01, 0.001}[rate];
    int removes = keys * removedPercent / 100;
    // at least three segments: a table of 64 slots of 12 bits is 98 bytes
    keys = Math.max(keys, 600);
    removes = Math.min(removes, keys);
    ExpandableFilter f = grown(fpRate, hinted ? keys / 2 + 1 : 0, keys, removes, seed);
    if (new ExpandablePayload().payloadLength(f) - ExpandableForm.HEADER_BYTES <= 2L << shift) {
      shift = 3;
    }
    // jqwik runs no JUnit extension (no @TempDir): a temporary file of its own
    Path file = file(f, Files.createTempFile("expandable", ".form"));
    try {
      ExpandableFilter mapped = map(file, shift);
      assertEquals(f, mapped);
      for (long h : hashes(keys, removes, seed)) {
        assertTrue(mapped.mayContainHash(h), "false negative in the mapped filter");
      }
      SplittableRandom r = new SplittableRandom(seed ^ 0x5DEECE66DL);
      for (int i = 0; i < 20_000; i++) {
        long h = r.nextLong();
        assertEquals(f.mayContainHash(h), mapped.mayContainHash(h), "hash " + h);
      }
    } finally {
      Files.delete(file);
    }
  }

  /** One segment (a table under its size) maps as one buffer, as the wrap reads it. */
  @Test
  void oneSegmentMapsAsOneBuffer() throws IOException {
    ExpandableFilter f = grown(0.01, 0, 2_000, 0, 9);
    ExpandableFilter wrapped =
        ExpandableForm.read(ByteBuffer.wrap(ExpandablePayload.bytes(f)), true);
    assertTrue(wrapped.isWrapped());
    assertEquals(f, wrapped);
    ExpandableFilter mapped = map(file(f), 30);
    assertEquals(f, mapped);
    long h = KeyHash.hash64(17L);
    assertEquals(f.mayContainHash(h), mapped.mayContainHash(h));
  }

  private static SieveFormatException refused(Path file, int shift) {
    return assertThrows(SieveFormatException.class, () -> map(file, shift));
  }

  @Test
  void badInputIsRefusedAtItsFileOffset() throws IOException {
    ExpandableFilter f = grown(0.01, 0, 5_000, 0, 3);
    Path good = file(f);
    byte[] form = Files.readAllBytes(good);
    // shorter than its header says: a typed error at the end of the bytes given
    Path cut = dir.resolve("cut");
    Files.write(cut, java.util.Arrays.copyOf(form, form.length - 8));
    SieveFormatException e = refused(cut, 6);
    assertEquals(form.length - 8, e.offset(), e.getMessage());
    assertTrue(e.getMessage().contains("(truncated)"), e.getMessage());
    // a block's offset changed in a later segment: the offset check, at the block's file offset
    byte[] bad = form.clone();
    long block = ExpandableSlots.blocks(f.slots) - 2;
    int at =
        PREFIX + ExpandableForm.HEADER_BYTES + (int) (ExpandableSlots.base(block, f.width) >>> 3);
    ByteBuffer le = ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN);
    int bitShift = (int) (ExpandableSlots.base(block, f.width) & 7);
    le.putInt(at, le.getInt(at) ^ (1 << (bitShift + 3)));
    Path flipped = dir.resolve("flipped");
    Files.write(flipped, bad);
    e = refused(flipped, 6);
    SieveFormatException heap =
        assertThrows(
            SieveFormatException.class,
            () -> ExpandableForm.read(ByteBuffer.wrap(bad, PREFIX, bad.length - PREFIX), false));
    assertEquals(PREFIX + heap.offset(), e.offset(), e.getMessage());
    assertTrue(e.getMessage().endsWith(heap.getMessage().replaceFirst("^at offset \\d+: ", "")));
    assertFalse(e.getMessage().matches(".*at offset.*at offset.*"), e.getMessage());
    // a payload of another version is refused at its version byte, before anything is mapped
    byte[] v2 = form.clone();
    v2[PREFIX + 1] = 2;
    Path old = dir.resolve("v2");
    Files.write(old, v2);
    e = refused(old, 6);
    assertEquals(PREFIX + 1, e.offset(), e.getMessage());
    // a header claiming the largest table (2^32 slots of 57 bits: 30.5 GiB) for a length that
    // matches it: refused at the header, before anything is mapped
    byte[] huge = java.util.Arrays.copyOf(form, PREFIX + ExpandableForm.HEADER_BYTES);
    huge[PREFIX + 2] = 32;
    huge[PREFIX + 4] = 57;
    huge[PREFIX + 5] = 0;
    ByteBuffer.wrap(huge)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(PREFIX + 16, 0)
        .putLong(PREFIX + 24, 0);
    Path claim = dir.resolve("claim");
    Files.write(claim, huge);
    long claimed = ExpandableForm.length(1L << 32, 57);
    try (FileChannel ch = FileChannel.open(claim, StandardOpenOption.READ)) {
      e =
          assertThrows(
              SieveFormatException.class, () -> ExpandableForm.map(ch, PREFIX, claimed, 30));
    }
    assertEquals(PREFIX + 2, e.offset(), e.getMessage());
    assertTrue(e.getMessage().contains("largest table"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> map(good, 2));
    assertThrows(IllegalArgumentException.class, () -> map(good, 31));
  }
}
