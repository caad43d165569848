package dev.sieve.xor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.hash.KeyHash;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/** Keys given as {@code long}s and byte strings (through {@link KeyHash}) and format pins. */
class KeyInputsTest {

  @Test
  void sequentialLongKeys() {
    long[] keys = new long[200_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i;
    }
    List<Filter> filters =
        List.of(
            Xor8Filter.builder().build(keys),
            Xor16Filter.builder().build(keys),
            BinaryFuse8Filter.builder().build(keys),
            BinaryFuse8Filter.builder().arity(4).build(keys),
            BinaryFuse16Filter.builder().build(keys),
            BinaryFuse16Filter.builder().arity(4).build(keys));
    for (Filter f : filters) {
      assertEquals(keys.length, f.numKeys());
      for (long k : keys) {
        assertTrue(f.mayContain(k), f + " lost " + k);
        assertTrue(f.mayContainHash(f.keyScheme().hash(k)));
      }
    }
  }

  @Test
  void byteStringKeysWithDuplicates() {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      keys.add(("user:" + (i % 20_000)).getBytes(StandardCharsets.UTF_8));
    }
    BinaryFuse8Filter f = BinaryFuse8Filter.builder().build(keys);
    assertEquals(20_000, f.numKeys());
    for (byte[] k : keys) {
      assertTrue(f.mayContain(k));
    }
  }

  /**
   * Regression pins of the serialized bytes (CRC-32 of {@code toByteArray()}) for 1000 fixed
   * hashes: any change to the seeded hash, the layouts, the fingerprint or the format changes them
   * and must come with a format version change. They were produced by this implementation (there is
   * no external reference: the seeding is Sieve's own).
   */
  @Test
  void serializedBytesArePinned() {
    long[] keys = Keys.random(1000, 2026);
    assertEquals(crc(Xor8Filter.builder().buildFromHashes(keys).toByteArray()), PIN_XOR8);
    assertEquals(crc(Xor16Filter.builder().buildFromHashes(keys).toByteArray()), PIN_XOR16);
    assertEquals(crc(BinaryFuse8Filter.builder().buildFromHashes(keys).toByteArray()), PIN_FUSE8);
    assertEquals(
        crc(BinaryFuse16Filter.builder().arity(4).buildFromHashes(keys).toByteArray()),
        PIN_FUSE16_4);
  }

  private static final long PIN_XOR8 = 3310231888L;
  private static final long PIN_XOR16 = 420376665L;
  private static final long PIN_FUSE8 = 89168025L;
  private static final long PIN_FUSE16_4 = 809157928L;

  private static long crc(byte[] bytes) {
    CRC32 c = new CRC32();
    c.update(bytes);
    return c.getValue();
  }
}
