package dev.sieve.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * Typed keys hash exactly as their bytes: a {@code CharSequence} as {@code
 * toString().getBytes(UTF_8)} (unpaired surrogates as {@code '?'}), an {@code int} as its four
 * big-endian bytes, any key as the bytes its encoder writes.
 */
class TypedKeyHashTest {

  private static long bytesHash(String s) {
    return KeyHash.hash64(s.getBytes(StandardCharsets.UTF_8));
  }

  @Provide
  Arbitrary<String> anyText() {
    // every char value, surrogates (paired and not) included, and lengths across XXPH3's branches
    return Arbitraries.strings().all().ofMinLength(0).ofMaxLength(300);
  }

  @Provide
  Arbitrary<String> surrogateHeavy() {
    return Arbitraries.strings()
        .withChars('a', 'é', '✓', '\uD83D', '\uDE00', '\uD800', '\uDFFF', '\u07FF', '\u0800')
        .ofMaxLength(40);
  }

  @Property(tries = 2000)
  void textHashesAsItsUtf8Bytes(@ForAll("anyText") String s) {
    assertEquals(bytesHash(s), KeyHash.hash64(s), s);
    assertEquals(bytesHash(s), KeyHash.hash64(new StringBuilder(s)), "a StringBuilder: " + s);
    assertEquals(bytesHash(s), KeyHash.hash64(s, KeyEncoder.UTF8));
  }

  @Property(tries = 2000)
  void surrogatesEncodeAsStringGetBytesDoes(@ForAll("surrogateHeavy") String s) {
    assertEquals(bytesHash(s), KeyHash.hash64(s), Arrays.toString(s.toCharArray()));
  }

  @Test
  void unpairedSurrogatesAndLongKeys() {
    for (String s :
        new String[] {
          "",
          "\uD800",
          "\uDC00",
          "a\uD800b",
          "\uDC00\uD800",
          "\uD83D\uDE00",
          "\uD83D",
          "x\uD83D",
          "€".repeat(30_000), // 90,000 bytes: past the kept buffer size
          "k".repeat(100_000)
        }) {
      assertEquals(bytesHash(s), KeyHash.hash64(s), "length " + s.length());
    }
    assertEquals(KeyHash.hash64(new byte[] {'?'}), KeyHash.hash64("\uD800"));
  }

  @Property(tries = 1000)
  void intKeysAreTheirFourBigEndianBytes(@ForAll int key) {
    byte[] be = ByteBuffer.allocate(4).putInt(key).array();
    assertEquals(KeyHash.hash64(be), KeyHash.hashInt(key));
    assertEquals(KeyHash.hash64(be), KeyHash.hash64(key, KeyEncoder.INT));
    assertNotEquals(KeyHash.hash64((long) key), KeyHash.hashInt(key), "int and long keys differ");
  }

  @Property(tries = 1000)
  void longKeysThroughTheSinkAreTheirEightBigEndianBytes(@ForAll long key) {
    assertEquals(KeyHash.hash64(key), KeyHash.hash64(key, KeyEncoder.LONG));
  }

  @Property(tries = 500)
  void anEncoderHashesAsTheBytesItWrites(
      @ForAll long a, @ForAll int b, @ForAll short c, @ForAll byte d, @ForAll("anyText") String s) {
    byte[] text = s.getBytes(StandardCharsets.UTF_8);
    byte[] tail = {1, 2, 3, 4, 5};
    ByteBuffer expected = ByteBuffer.allocate(8 + 4 + 2 + 1 + text.length + 3 + 2);
    expected.putLong(a).putInt(b).putShort(c).put(d).put(text).put(tail, 1, 3).put(tail, 3, 2);
    KeyEncoder<Object> encoder =
        (ignored, sink) ->
            sink.putLong(a)
                .putInt(b)
                .putShort(c)
                .putByte(d)
                .putUtf8(s)
                .putBytes(tail, 1, 3)
                .putBytes(ByteBuffer.wrap(tail, 3, 2));
    assertEquals(KeyHash.hash64(expected.array()), KeyHash.hash64("any", encoder));
  }

  @Test
  void byteAndBufferEncodersKeepTheKey() {
    byte[] key = "abcdefgh-ijklmnop-qrstuvwx".getBytes(StandardCharsets.US_ASCII);
    ByteBuffer buffer = ByteBuffer.wrap(key, 3, 10);
    assertEquals(KeyHash.hash64(key), KeyHash.hash64(key, KeyEncoder.BYTES));
    assertEquals(KeyHash.hash64(key, 3, 10), KeyHash.hash64(buffer, KeyEncoder.BUFFER));
    assertEquals(3, buffer.position(), "the buffer's position is kept");
  }

  @Test
  void anEncoderThatHashesAnotherKeyDoesNotOverwriteItsOwn() {
    KeyEncoder<String> nested =
        (s, sink) -> {
          sink.putUtf8(s);
          long inner = KeyHash.hash64("inner key");
          sink.putLong(inner);
        };
    byte[] expected =
        ByteBuffer.allocate(5 + 8)
            .put("outer".getBytes(StandardCharsets.UTF_8))
            .putLong(KeyHash.hash64("inner key"))
            .array();
    assertEquals(KeyHash.hash64(expected), KeyHash.hash64("outer", nested));
  }

  @Test
  void badRangesAreRejected() {
    assertThrows(
        IndexOutOfBoundsException.class,
        () -> KeyHash.hash64("k", (k, sink) -> sink.putBytes(new byte[4], 2, 3)));
  }
}
