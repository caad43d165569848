package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sieve.hash.XxHash64;
import dev.sieve.hash.Xxh3;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The block checksums of RocksDB's block-based tables: each type over a block and its trailing
 * compression byte, and the format_version 6 context modifier. The hashes themselves are checked
 * against the xxHash reference implementation in sieve-core ({@code XxHashReferenceTest}); the SST
 * reader tests check the same code against the trailers rocksdbjni writes.
 */
class ChecksumTest {
  private static byte[] pattern(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 131 + 7);
    }
    return b;
  }

  @Test
  void blockChecksumsCoverTheTrailingCompressionByte() {
    byte[] data = pattern(300);
    byte[] joined = pattern(301);
    joined[300] = 0;
    CRC32C crc = new CRC32C();
    crc.update(joined);
    int crcValue = (int) crc.getValue();
    assertEquals(
        Integer.rotateRight(crcValue, 15) + 0xa282ead8,
        ChecksumType.CRC32C.blockChecksum(data, 0, 300, (byte) 0));
    assertEquals(
        XxHash32.hash(joined, 0, 301, 0),
        ChecksumType.XXHASH32.blockChecksum(data, 0, 300, (byte) 0));
    assertEquals(
        (int) XxHash64.hash(joined, 0, 301, 0),
        ChecksumType.XXHASH64.blockChecksum(data, 0, 300, (byte) 0));
    // XXH3: hash of all but the last byte, xor last byte times 0x6b9083d9
    assertEquals(
        (int) Xxh3.hash64(data, 0, 300) ^ (7 * 0x6b9083d9),
        ChecksumType.XXH3.blockChecksum(data, 0, 300, (byte) 7));
    assertEquals(0, ChecksumType.XXH3.checksum(data, 0, 0));
    assertEquals(0, ChecksumType.NONE.blockChecksum(data, 0, 300, (byte) 1));
  }

  @Test
  void contextModifierMixesBothHalvesOfTheOffset() {
    assertEquals(0, ChecksumType.contextModifier(0, 12345));
    assertEquals(0x1234 ^ 100, ChecksumType.contextModifier(0x1234, 100));
    assertEquals(0x1234 ^ (5 + 3), ChecksumType.contextModifier(0x1234, (3L << 32) + 5));
  }
}
