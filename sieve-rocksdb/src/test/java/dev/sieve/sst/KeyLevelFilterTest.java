package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyFilter;
import dev.sieve.KeyedFilter;
import dev.sieve.hash.KeyEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The legacy RocksDB Bloom filter hashes key bytes with its own 32-bit hash, so it is a {@link
 * KeyFilter} and not a {@link Filter}: typed keys (text, {@code long}, {@code int}, encoded) are
 * answered from their bytes, exactly as the same bytes are, and no 64-bit hash is pretended to be
 * understood.
 */
class KeyLevelFilterTest {

  @Test
  void legacyBloomAnswersTypedKeysFromTheirBytes() {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      keys.add(("key-" + i + (i % 3 == 0 ? "-é" : "")).getBytes(StandardCharsets.UTF_8));
    }
    for (long k = 0; k < 500; k++) {
      keys.add(ByteBuffer.allocate(8).putLong(k * 7919).array());
      keys.add(ByteBuffer.allocate(4).putInt((int) k * 31).array());
    }
    byte[] block = LegacyLocalityBloomFilter.buildRocksDbFilterBlock(keys, 10);
    FilterBlock read = FilterBlockReader.read(block, keys.size());
    assertEquals(FilterKind.LEGACY_BLOOM, read.kind());
    KeyFilter legacy = read.filter();
    assertFalse(legacy instanceof Filter, "the legacy filter does not answer 64-bit hashes");
    assertFalse(read.hashesWithKeyHash());
    assertThrows(UnsupportedOperationException.class, () -> read.mayContainHash(42));

    KeyedFilter<CharSequence> text = legacy.keyed(KeyEncoder.UTF8);
    int agree = 0;
    for (int i = 0; i < 4000; i++) { // present keys, then absent ones: answers equal the bytes'
      String s = "key-" + i + (i % 3 == 0 ? "-é" : "");
      boolean bytes = legacy.mayContain(s.getBytes(StandardCharsets.UTF_8));
      assertEquals(bytes, legacy.mayContain(s), s);
      assertEquals(bytes, text.mayContain(new StringBuilder(s)), s);
      assertEquals(bytes, read.mayContain(s), s);
      agree += i < 2000 && bytes ? 1 : 0;
    }
    assertEquals(2000, agree, "every present text key");
    for (long k = 0; k < 500; k++) {
      assertTrue(legacy.mayContain(k * 7919), "long " + k);
      assertTrue(legacy.mayContainInt((int) k * 31), "int " + k);
      assertTrue(legacy.mayContain((int) k * 31, KeyEncoder.INT), "encoded int " + k);
      assertTrue(
          legacy.mayContain(
              ByteBuffer.wrap(ByteBuffer.allocate(8).putLong(k * 7919).array())
                  .asReadOnlyBuffer()));
    }
  }
}
