package dev.sieve.sst;

import static dev.sieve.testing.HashVectors.pattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Golden vectors for {@link XxHash32}, the 32-bit xxHash of RocksDB's {@code kxxHash} block
 * checksum: the values of the xxHash reference implementation (the C library behind the Python
 * {@code xxhash} 3.x binding, {@code xxh32_intdigest}, seed 0) over the prefixes of the pattern
 * {@code b[i] = (131 i + 7) mod 256}, covering every XXH32 tail and the 16-byte stripes.
 */
class XxHash32ReferenceTest {
  @ParameterizedTest(name = "length {0}")
  @CsvSource({
    "0, 0x2cc5d05",
    "1, 0x2e0d32",
    "2, 0x606f454",
    "3, 0x7d92e8db",
    "4, 0xf189ec97",
    "5, 0x4400af42",
    "8, 0xc78aa5cd",
    "9, 0xd33d200",
    "16, 0x64287c90",
    "17, 0x1c63fdc5",
    "32, 0x1e1bff83",
    "33, 0x2934fd43",
    "64, 0xe0092599",
    "65, 0x6f20b0b5",
    "96, 0xa865ec18",
    "97, 0x8b871d8",
    "128, 0xe7f121da",
    "129, 0x96bbfd0d",
    "200, 0x2b0139e0",
    "240, 0x640e7dfd",
    "241, 0x8888b3f2",
    "500, 0x71f590e",
    "1023, 0x29e47c28",
    "1024, 0xd383ffc6",
    "1025, 0x4a631e73",
    "2048, 0x67625b21",
    "2049, 0x787ec383",
    "4999, 0x653b96f9",
  })
  void matchesTheReferenceImplementation(int len, String xxh32) {
    byte[] data = pattern(len);
    assertEquals((int) Long.parseLong(xxh32.substring(2), 16), XxHash32.hash(data, 0, len, 0));
    byte[] shifted = new byte[len + 9];
    System.arraycopy(data, 0, shifted, 5, len);
    assertEquals((int) Long.parseLong(xxh32.substring(2), 16), XxHash32.hash(shifted, 5, len, 0));
  }

  @Test
  void rangesOutsideTheArrayAreRefused() {
    byte[] data = new byte[16];
    assertThrows(IndexOutOfBoundsException.class, () -> XxHash32.hash(data, 0, 17, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> XxHash32.hash(data, 4, -1, 0));
  }
}
