package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.hash.KeyHash;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The filter contract, for every Bloom filter: no key that was added is ever reported absent, for
 * arbitrary key sets (empty, one key, duplicates, all-zero keys, sequential keys, keys of length
 * 0..1000) and arbitrary bits/key in [1, 40].
 */
class BloomNoFalseNegativePropertyTest {

  @Provide
  Arbitrary<List<byte[]>> byteKeySets() {
    Arbitrary<byte[]> anyKey = Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(1000);
    Arbitrary<byte[]> shortKey = Arbitraries.bytes().array(byte[].class).ofMaxSize(12);
    Arbitrary<byte[]> zeroKey = Arbitraries.integers().between(0, 64).map(byte[]::new);
    Arbitrary<byte[]> key =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(3, shortKey),
            net.jqwik.api.Tuple.of(1, anyKey),
            net.jqwik.api.Tuple.of(1, zeroKey));
    Arbitrary<List<byte[]>> random = key.list().ofMinSize(0).ofMaxSize(300);
    Arbitrary<List<byte[]>> withDuplicates =
        Combinators.combine(
                key.list().ofMinSize(1).ofMaxSize(20), Arbitraries.integers().between(1, 30))
            .as(
                (base, copies) -> {
                  List<byte[]> out = new ArrayList<>();
                  for (int c = 0; c < copies; c++) {
                    out.addAll(base);
                  }
                  return out;
                });
    return Arbitraries.oneOf(random, withDuplicates);
  }

  @Provide
  Arbitrary<long[]> longKeySets() {
    Arbitrary<long[]> random = Arbitraries.longs().array(long[].class).ofMaxSize(5000);
    Arbitrary<long[]> sequential =
        Combinators.combine(Arbitraries.longs(), Arbitraries.integers().between(0, 20000))
            .as(
                (start, n) -> {
                  long[] keys = new long[n];
                  for (int i = 0; i < n; i++) {
                    keys[i] = start + i;
                  }
                  return keys;
                });
    Arbitrary<long[]> zeros = Arbitraries.integers().between(0, 1000).map(long[]::new);
    Arbitrary<long[]> fewDistinct =
        Combinators.combine(
                Arbitraries.longs().array(long[].class).ofMinSize(1).ofMaxSize(3),
                Arbitraries.integers().between(1, 10000))
            .as(
                (base, n) -> {
                  long[] keys = new long[n];
                  for (int i = 0; i < n; i++) {
                    keys[i] = base[i % base.length];
                  }
                  return keys;
                });
    return Arbitraries.oneOf(random, sequential, zeros, fewDistinct);
  }

  @Property(tries = 150)
  void blockedBloomByteKeys(
      @ForAll("byteKeySets") List<byte[]> keys,
      @ForAll @DoubleRange(min = 1, max = 40) double bitsPerKey) {
    BlockedBloomFilter filter = BlockedBloomFilter.builder().bitsPerKey(bitsPerKey).build(keys);
    assertAllPresent(filter, keys);
  }

  @Property(tries = 150)
  void standardBloomByteKeys(
      @ForAll("byteKeySets") List<byte[]> keys,
      @ForAll @DoubleRange(min = 1, max = 40) double bitsPerKey) {
    StandardBloomFilter filter = StandardBloomFilter.builder().bitsPerKey(bitsPerKey).build(keys);
    assertAllPresent(filter, keys);
  }

  @Property(tries = 100)
  void blockedBloomLongKeys(
      @ForAll("longKeySets") long[] keys,
      @ForAll @DoubleRange(min = 1, max = 40) double bitsPerKey) {
    BlockedBloomFilter filter = BlockedBloomFilter.builder().bitsPerKey(bitsPerKey).build(keys);
    for (long key : keys) {
      assertTrue(filter.mayContain(key), () -> "false negative for " + key);
    }
    // the RocksDB block reads back to a filter with the same answers
    BlockedBloomFilter read =
        BlockedBloomFilter.fromRocksDbFilterBlock(filter.toRocksDbFilterBlock());
    for (long key : keys) {
      assertTrue(read.mayContain(key), () -> "false negative after round trip for " + key);
    }
  }

  @Property(tries = 100)
  void standardBloomLongKeys(
      @ForAll("longKeySets") long[] keys,
      @ForAll @DoubleRange(min = 1, max = 40) double bitsPerKey) {
    StandardBloomFilter filter = StandardBloomFilter.builder().bitsPerKey(bitsPerKey).build(keys);
    for (long key : keys) {
      assertTrue(filter.mayContain(key), () -> "false negative for " + key);
    }
  }

  @Property(tries = 60)
  void incrementalAddsAndUnions(
      @ForAll("longKeySets") long[] keys,
      @ForAll @DoubleRange(min = 1, max = 40) double bitsPerKey,
      @ForAll @IntRange(min = 0, max = 100) int splitPercent) {
    int split = (int) ((long) keys.length * splitPercent / 100);
    BlockedBloomFilter blockedA = BlockedBloomFilter.createWithBitsPerKey(keys.length, bitsPerKey);
    BlockedBloomFilter blockedB = BlockedBloomFilter.createWithBitsPerKey(keys.length, bitsPerKey);
    StandardBloomFilter standardA =
        StandardBloomFilter.createWithBitsPerKey(keys.length, bitsPerKey);
    StandardBloomFilter standardB =
        StandardBloomFilter.createWithBitsPerKey(keys.length, bitsPerKey);
    for (int i = 0; i < keys.length; i++) {
      (i < split ? blockedA : blockedB).add(keys[i]);
      (i < split ? standardA : standardB).add(keys[i]);
    }
    blockedA.union(blockedB);
    standardA.union(standardB);
    for (long key : keys) {
      assertTrue(blockedA.mayContain(key));
      assertTrue(standardA.mayContain(key));
    }
  }

  @Property(tries = 50)
  void precomputedHashesAndOffsets(
      @ForAll @Size(max = 200) List<@Size(max = 40) byte[]> keys,
      @ForAll @IntRange(min = 0, max = 7) int pad) {
    long[] hashes = new long[keys.size()];
    List<byte[]> padded = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      hashes[i] = KeyHash.hash64(keys.get(i));
      byte[] p = new byte[keys.get(i).length + 2 * pad];
      System.arraycopy(keys.get(i), 0, p, pad, keys.get(i).length);
      padded.add(p);
    }
    Filter blocked = BlockedBloomFilter.builder().buildFromHashes(hashes);
    Filter standard = StandardBloomFilter.builder().buildFromHashes(hashes);
    for (int i = 0; i < keys.size(); i++) {
      byte[] p = padded.get(i);
      assertTrue(blocked.mayContain(p, pad, keys.get(i).length));
      assertTrue(standard.mayContain(p, pad, keys.get(i).length));
      assertTrue(blocked.mayContain(java.nio.ByteBuffer.wrap(p, pad, keys.get(i).length)));
    }
  }

  private static void assertAllPresent(Filter filter, List<byte[]> keys) {
    for (byte[] key : keys) {
      assertTrue(filter.mayContain(key), () -> "false negative for a key of length " + key.length);
    }
  }
}
