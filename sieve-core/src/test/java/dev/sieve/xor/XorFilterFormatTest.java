package dev.sieve.xor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The serialized form: golden layout, round trips, and typed errors for bad bytes. */
class XorFilterFormatTest {

  @ParameterizedTest
  @MethodSource("dev.sieve.xor.StaticFilterCase#all")
  void roundTripKeepsAnswersAndBytes(StaticFilterCase kind) {
    long[] keys = Keys.random(5000, 77);
    Filter f = kind.build(keys);
    byte[] bytes = kind.toBytes(f);
    Filter g = kind.fromBytes(bytes);
    assertEquals(f, g);
    assertArrayEquals(bytes, kind.toBytes(g));
    for (long h : Keys.random(20_000, 78)) {
      assertEquals(f.mayContainHash(h), g.mayContainHash(h));
    }
    for (long h : keys) {
      assertTrue(g.mayContainHash(h));
    }
    Filter empty = kind.build(new long[0]);
    assertEquals(empty, kind.fromBytes(kind.toBytes(empty)));
    assertEquals(XorFilterFormat.HEADER_BYTES, kind.toBytes(empty).length);
  }

  /**
   * The registry gives every configuration the tests covered when they kept their own list: the
   * four fingerprint types, Binary Fuse at arity 3 and 4, and each case really builds its class at
   * its arity (a lost arity setting would silently test 3-wise twice).
   */
  @Test
  void registryGivesEveryStaticConfiguration() {
    assertEquals(
        List.of(
            "xor8",
            "xor16",
            "binary-fuse8/arity3",
            "binary-fuse8/arity4",
            "binary-fuse16/arity3",
            "binary-fuse16/arity4"),
        StaticFilterCase.all().stream().map(Object::toString).toList());
    for (StaticFilterCase c : StaticFilterCase.all()) {
      Filter f = c.build(Keys.random(100, 1));
      assertEquals(c.type().filterClass(), f.getClass());
      assertEquals(c.arity(), ((FingerprintFilter) f).shape().arity(), c.toString());
    }
  }

  /** The header layout, field by field, for a Binary Fuse 16 filter (4-wise). */
  @Test
  void headerLayoutIsAsDocumented() {
    BinaryFuse16Filter f =
        BinaryFuse16Filter.builder().arity(4).seed(7).buildFromHashes(Keys.random(1000, 1));
    ByteBuffer b = ByteBuffer.wrap(f.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(0x22, b.get(0));
    assertEquals(16, b.get(1));
    assertEquals(4, b.get(2));
    assertEquals(0, b.get(3));
    assertEquals(f.seed(), b.getLong(4));
    assertEquals(1000, b.getInt(12));
    assertEquals(f.segmentLength(), b.getInt(16));
    assertEquals(f.segmentCount(), b.getInt(20));
    assertEquals((f.segmentCount() + 3) * f.segmentLength(), f.numSlots());
    assertEquals(24 + 2 * f.numSlots(), b.capacity());
  }

  @ParameterizedTest
  @MethodSource("dev.sieve.xor.StaticFilterCase#all")
  void everyTruncationIsATypedError(StaticFilterCase kind) {
    byte[] bytes = kind.toBytes(kind.build(Keys.random(100, 3)));
    for (int len = 0; len < bytes.length; len++) {
      byte[] cut = Arrays.copyOf(bytes, len);
      SieveFormatException e =
          assertThrows(SieveFormatException.class, () -> kind.fromBytes(cut), "length " + len);
      assertTrue(e.offset() >= 0 && e.offset() <= len, e.getMessage());
    }
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
    assertThrows(SieveFormatException.class, () -> kind.fromBytes(longer));
  }

  @Test
  void corruptHeadersAreTypedErrorsWithTheirOffset() {
    byte[] good = BinaryFuse8Filter.builder().buildFromHashes(Keys.random(1000, 4)).toByteArray();
    assertOffset(0, patch(good, 0, 0x11), BinaryFuse8Filter.FORM::fromByteArray); // Xor8's tag
    assertOffset(1, patch(good, 1, 16), BinaryFuse8Filter.FORM::fromByteArray);
    assertOffset(2, patch(good, 2, 5), BinaryFuse8Filter.FORM::fromByteArray);
    assertOffset(3, patch(good, 3, 1), BinaryFuse8Filter.FORM::fromByteArray);
    // a segment length that is not a power of two
    assertOffset(16, putInt(good, 16, 1000), BinaryFuse8Filter.FORM::fromByteArray);
    // huge segment count: 2^32-1 segments would be a 2^50-byte table; must not allocate
    assertOffset(16, putInt(good, 20, -1), BinaryFuse8Filter.FORM::fromByteArray);
    // more keys than slots
    assertOffset(12, putInt(good, 12, -1), BinaryFuse8Filter.FORM::fromByteArray);
    // a plausible but wrong segment count: the length no longer matches
    ByteBuffer b = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN);
    byte[] moreSegments = putInt(good, 20, b.getInt(20) + 1);
    assertThrows(
        SieveFormatException.class, () -> BinaryFuse8Filter.FORM.fromByteArray(moreSegments));

    byte[] xor = Xor16Filter.builder().buildFromHashes(Keys.random(1000, 4)).toByteArray();
    assertOffset(20, putInt(xor, 20, 2), Xor16Filter.FORM::fromByteArray); // Xor has one "segment"
    assertOffset(2, patch(xor, 2, 4), Xor16Filter.FORM::fromByteArray); // no 4-wise Xor filter
    byte[] emptyWithLength =
        putInt(Xor8Filter.builder().buildFromHashes(new long[0]).toByteArray(), 16, 5);
    assertOffset(16, emptyWithLength, Xor8Filter.FORM::fromByteArray);
  }

  private static void assertOffset(
      long offset, byte[] bytes, java.util.function.Function<byte[], ?> reader) {
    SieveFormatException e = assertThrows(SieveFormatException.class, () -> reader.apply(bytes));
    assertEquals(offset, e.offset(), e.getMessage());
  }

  private static byte[] patch(byte[] bytes, int offset, int value) {
    byte[] copy = bytes.clone();
    copy[offset] = (byte) value;
    return copy;
  }

  private static byte[] putInt(byte[] bytes, int offset, int value) {
    byte[] copy = bytes.clone();
    ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(offset, value);
    return copy;
  }
}
