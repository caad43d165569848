package dev.sieve.hash;

import static dev.sieve.testing.HashVectors.pattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Golden vectors for the 64-bit xxHash hashes ({@link Xxh3}, {@link XxHash64}; RocksDB's block
 * checksums also use XXH32, which sieve-rocksdb holds and checks the same way). The hash values are
 * those of the xxHash reference implementation (the C library behind the Python {@code xxhash} 3.x
 * binding: {@code xxh3_64_intdigest}, {@code xxh64_intdigest}) over the prefixes of the pattern
 * {@code b[i] = (131 i + 7) mod 256}, covering every XXH3 length branch (0, 1-3, 4-8, 9-16, 17-128,
 * 129-240, and the long path with one, several and partial 1024-byte blocks) and every XXH64 tail.
 */
class XxHashReferenceTest {
  @ParameterizedTest(name = "length {0}")
  @CsvSource({
    "0, 0x2d06800538d394c2, 0xef46db3751d8e999",
    "1, 0x4c5cca45d0f4811f, 0xa96c7f0ce858bbb7",
    "2, 0x29c60963cbfa4e6e, 0xc22c6a70ad56bba6",
    "3, 0x6e3e2670e61106ac, 0xbed43740ee6332bb",
    "4, 0x5c4c63133443d03f, 0xfa212ae44b3bb23d",
    "5, 0x49f5eb3111280b63, 0xd339dcc9ac8e6776",
    "8, 0xf9fd4dd0b04d78f5, 0x994b676b71ce94dd",
    "9, 0x7c20df9712c26edf, 0x572b84c18b983af8",
    "16, 0x86abf6baccea0858, 0x94ad0095e72b24d5",
    "17, 0xb58bf5dc5022d071, 0x1464f2eff23b5fe1",
    "32, 0xe3712ed84c04a66e, 0x7f7b8e3bc5d6e25",
    "33, 0xa4dee99b093e1f73, 0x9f85eeb4e1cbe9f",
    "64, 0x1291d2d4042330dd, 0x50d4159a0411632e",
    "65, 0x97c6bf83217e5ec9, 0xd277176bff863efc",
    "96, 0x81296929fc063365, 0x18c8f362eb735341",
    "97, 0xf145a45b658ab9dd, 0x7683defa1456dab5",
    "128, 0x10d17f72c0ccba41, 0x430e433b792e757",
    "129, 0x1648bdc3db49d1a2, 0x1f9708e5a00618fa",
    "200, 0xc0fbc0f4e181c826, 0x3b8cc7eaa63f107e",
    "240, 0xb6cfaf343fab81e6, 0xca0b65cc61295ca7",
    "241, 0x956cae592c67279e, 0xffefe0dfc875cf4",
    "500, 0x7ce64a364c324f8e, 0x89ab154442470e62",
    "1023, 0xa94ffcd2254368e4, 0x4db3efaa15c421b1",
    "1024, 0x70bd377d9574f4bb, 0x5960af0c625acfb7",
    "1025, 0x66c4487c41e127a7, 0xdbd366621190a655",
    "2048, 0x8b46caa67dab3a30, 0xafd8cdfc2fae9426",
    "2049, 0x581cd184fd9b76c5, 0x2178442ee3e27e9e",
    "4999, 0xc3af6109daa0965b, 0x679472bdcab7ff53",
  })
  void matchesTheReferenceImplementation(int len, String xxh3, String xxh64) {
    byte[] data = pattern(len);
    assertEquals(Long.parseUnsignedLong(xxh3.substring(2), 16), Xxh3.hash64(data, 0, len));
    assertEquals(Long.parseUnsignedLong(xxh64.substring(2), 16), XxHash64.hash(data, 0, len, 0));
    // at an offset inside a larger array
    byte[] shifted = new byte[len + 9];
    System.arraycopy(data, 0, shifted, 5, len);
    assertEquals(Long.parseUnsignedLong(xxh3.substring(2), 16), Xxh3.hash64(shifted, 5, len));
  }

  @Test
  void rangesOutsideTheArrayAreRefused() {
    byte[] data = new byte[16];
    assertThrows(IndexOutOfBoundsException.class, () -> Xxh3.hash64(data, 8, 9));
    assertThrows(IndexOutOfBoundsException.class, () -> Xxh3.hash64(data, -1, 4));
    assertEquals(Xxh3.hash64(new byte[0], 0, 0), Xxh3.hash64(data, 16, 0));
  }
}
