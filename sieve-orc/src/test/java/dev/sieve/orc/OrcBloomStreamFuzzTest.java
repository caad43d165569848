package dev.sieve.orc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.SieveFormatException;
import dev.sieve.interop.OrcBloomFilter;

/**
 * Fuzz target for the protobuf reader over a Bloom filter stream's bytes (a {@code
 * BloomFilterIndex}: repeated {@code BloomFilter} messages), read both as a {@code BLOOM_FILTER}
 * and as a {@code BLOOM_FILTER_UTF8} stream: a typed {@link SieveFormatException} or filters whose
 * written form reads back the same and that hold a key added.
 */
class OrcBloomStreamFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    for (boolean utf8 : new boolean[] {false, true}) {
      ProtoReader index = new ProtoReader(data, 0, data.length, 0, "BloomFilterIndex");
      try {
        while (index.next()) {
          if (index.field() != 1) {
            index.skip();
            continue;
          }
          OrcBloomFilter f = OrcStripeIndex.bloomFilter(index.message("BloomFilter"), utf8);
          byte[] bytes = f.utf8Bitset();
          OrcBloomFilter back = OrcBloomFilter.fromUtf8Bitset(bytes, f.numHashFunctions(), 0);
          assertArrayEquals(f.bitset(), back.bitset());
          back.add(data.length);
          assertTrue(back.mayContain(data.length));
        }
      } catch (SieveFormatException e) {
        assertTrue(e.offset() >= 0, e.getMessage());
      }
    }
  }
}
