package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import dev.sieve.hash.KeyHash;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The foreign and ORC filters keep their bits and key count in the Bloom filters' one bit array
 * ({@code dev.sieve.internal.BloomWords}): equality and hash codes still follow the words alone,
 * and a view under another key scheme shares the key count as well as the bits.
 */
class SharedBloomWordsTest {

  @Test
  void orcViewUnderAnotherSchemeSharesTheKeyCount() {
    OrcBloomFilter orc = OrcBloomFilter.create(1000, 0.01);
    OrcBloomFilter view = orc.withKeyScheme(KeyScheme.XXPH3);
    for (long k = 0; k < 100; k++) {
      view.addHash(KeyHash.hash64(k));
    }
    assertTrue(view.numKeys() > 90, "adds that changed bits: " + view.numKeys());
    assertEquals(view.numKeys(), orc.numKeys(), "the view's adds count in the filter it views");
    for (long k = 0; k < 100; k++) {
      assertTrue(orc.mayContainHash(KeyHash.hash64(k)), "the view's bits show in the filter");
    }
  }

  @Test
  void orcUnionKeepsTheLargerCountAndCopiesAreIndependent() {
    OrcBloomFilter a = OrcBloomFilter.create(1000, 0.01);
    OrcBloomFilter b = OrcBloomFilter.create(1000, 0.01);
    for (long k = 0; k < 200; k++) {
      a.addHash(KeyHash.hash64(k));
      b.addHash(KeyHash.hash64(k + 100)); // 100 keys in common
    }
    OrcBloomFilter before = a.copy();
    long counted = before.numKeys();
    a.union(b);
    assertEquals(300, a.numKeys(), 12, "the union's distinct keys, estimated from its bits");
    assertEquals(counted, before.numKeys(), "the copy keeps its own count");
    assertNotEquals(before, a, "the copy did not take the union's bits");
    for (long k = 0; k < 300; k++) {
      assertTrue(a.mayContainHash(KeyHash.hash64(k)));
    }
  }

  @Test
  void foreignEqualityAndHashCodeFollowTheWords() {
    GuavaBloomFilter g = GuavaBloomFilter.create(500, 0.01);
    for (long k = 0; k < 300; k++) {
      g.put(k);
    }
    GuavaBloomFilter read = GuavaBloomFilter.readFrom(g.toByteArray());
    assertEquals(g, read);
    assertEquals(g.hashCode(), read.hashCode());
    assertEquals(Arrays.hashCode(g.words) * 31 + g.numProbes(), g.hashCode());
    assertEquals(300, g.numKeys(), 3, "puts that changed a bit (a rare put changes none)");
    assertEquals(g.bitsSet(), Arrays.stream(g.words).map(Long::bitCount).sum());
    read.put(1_000_000L);
    assertNotEquals(g, read);
  }
}
