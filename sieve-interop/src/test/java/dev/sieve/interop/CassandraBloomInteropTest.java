package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.HashCode;
import com.google.common.hash.Hashing;
import dev.sieve.SieveFormatException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link CassandraBloomFilter} against an independent model of Cassandra's {@code Filter.db}.
 *
 * <p>Cassandra's own library is not a test dependency: {@code org.apache.cassandra:cassandra-all}
 * 5.0.x declares about eighty dependencies (Netty, Chronicle, Lucene, Sigar, ECJ, …) and its {@code
 * OffHeapBitSet} allocates through the server's native memory layer. Files written by Cassandra
 * itself are checked in {@link CassandraFilterGoldenTest}; here:
 *
 * <ul>
 *   <li>{@link Naive}: a second implementation written from the algorithm's description, bit by
 *       bit: MurmurHash3 x64_128 with the tail bytes sign-extended (Cassandra's {@code
 *       MurmurHash.hash3_x64_128}), the probe {@code |(h1 + i · h0) mod m|} in exact integer
 *       arithmetic ({@link BigInteger}, wrapped to 64 bits), a byte-addressed bit set as
 *       Cassandra's {@code OffHeapBitSet}, and the serialized bytes assembled field by field. For
 *       10^5 present and 10^5 absent keys (random lengths 0 to 40, all byte values; the absent ones
 *       8 to 40) both answer the same and write the same bytes.
 *   <li>The reference MurmurHash3 x64_128 (Guava's {@code Hashing.murmur3_128()}), which must equal
 *       Cassandra's variant for every key whose tail bytes are below {@code 0x80} and differ for
 *       some with a high tail byte.
 *   <li>A published Murmur3Partitioner token: {@code token(1)} of an {@code int} partition key is
 *       -4069959284402364209 in Cassandra's CQL documentation and examples; the token is the first
 *       half {@code h0} of the hash.
 *   <li>Cassandra's sizing table, derived by hand for the rates Cassandra users set (0.01 is the
 *       default of SizeTiered compaction, 0.1 of Leveled).
 * </ul>
 */
class CassandraBloomInteropTest {

  /** The model: written from the description, not from {@link CassandraBloomKernel}. */
  static final class Naive {
    static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    final int hashCount;
    final byte[] bits; // byte i holds bits 8i..8i+7, lowest bit first

    Naive(int hashCount, long words) {
      this.hashCount = hashCount;
      this.bits = new byte[(int) (words * 8)];
    }

    long capacity() {
      return bits.length * 8L;
    }

    static long[] hash(byte[] key) {
      long h1 = 0;
      long h2 = 0;
      int blocks = key.length / 16;
      for (int b = 0; b < blocks; b++) {
        long k1 = 0;
        long k2 = 0;
        for (int j = 0; j < 8; j++) {
          k1 |= (key[16 * b + j] & 0xffL) << (8 * j);
          k2 |= (key[16 * b + 8 + j] & 0xffL) << (8 * j);
        }
        k1 *= 0x87c37b91114253d5L;
        k1 = (k1 << 31) | (k1 >>> 33);
        k1 *= 0x4cf5ad432745937fL;
        h1 ^= k1;
        h1 = (h1 << 27) | (h1 >>> 37);
        h1 += h2;
        h1 = h1 * 5 + 0x52dce729L;
        k2 *= 0x4cf5ad432745937fL;
        k2 = (k2 << 33) | (k2 >>> 31);
        k2 *= 0x87c37b91114253d5L;
        h2 ^= k2;
        h2 = (h2 << 31) | (h2 >>> 33);
        h2 += h1;
        h2 = h2 * 5 + 0x38495ab5L;
      }
      long k1 = 0;
      long k2 = 0;
      int tail = 16 * blocks;
      int rem = key.length - tail;
      for (int j = rem - 1; j >= 0; j--) {
        long signExtended = key[tail + j]; // the quirk: no & 0xff
        if (j >= 8) {
          k2 ^= signExtended << (8 * (j - 8));
        } else {
          k1 ^= signExtended << (8 * j);
        }
      }
      if (rem > 8) {
        k2 *= 0x4cf5ad432745937fL;
        k2 = (k2 << 33) | (k2 >>> 31);
        k2 *= 0x87c37b91114253d5L;
        h2 ^= k2;
      }
      if (rem > 0) {
        k1 *= 0x87c37b91114253d5L;
        k1 = (k1 << 31) | (k1 >>> 33);
        k1 *= 0x4cf5ad432745937fL;
        h1 ^= k1;
      }
      h1 ^= key.length;
      h2 ^= key.length;
      h1 += h2;
      h2 += h1;
      h1 = fmix(h1);
      h2 = fmix(h2);
      h1 += h2;
      h2 += h1;
      return new long[] {h1, h2};
    }

    static long fmix(long k) {
      k ^= k >>> 33;
      k *= 0xff51afd7ed558ccdL;
      k ^= k >>> 33;
      k *= 0xc4ceb9fe1a85ec53L;
      k ^= k >>> 33;
      return k;
    }

    long index(long[] h, int i) {
      BigInteger sum =
          BigInteger.valueOf(h[1]).add(BigInteger.valueOf(h[0]).multiply(BigInteger.valueOf(i)));
      BigInteger wrapped = sum.mod(TWO_64);
      if (wrapped.testBit(63)) {
        wrapped = wrapped.subtract(TWO_64); // as a signed long
      }
      return wrapped.remainder(BigInteger.valueOf(capacity())).abs().longValueExact();
    }

    void add(byte[] key) {
      long[] h = hash(key);
      for (int i = 0; i < hashCount; i++) {
        long b = index(h, i);
        bits[(int) (b / 8)] |= (byte) (1 << (b % 8));
      }
    }

    boolean isPresent(byte[] key) {
      long[] h = hash(key);
      for (int i = 0; i < hashCount; i++) {
        long b = index(h, i);
        if ((bits[(int) (b / 8)] & (1 << (b % 8))) == 0) {
          return false;
        }
      }
      return true;
    }

    byte[] serialize(boolean legacy) {
      byte[] out = new byte[8 + bits.length];
      int words = bits.length / 8;
      for (int j = 0; j < 4; j++) {
        out[j] = (byte) (hashCount >>> (24 - 8 * j));
        out[4 + j] = (byte) (words >>> (24 - 8 * j));
      }
      for (int i = 0; i < bits.length; i++) {
        int at = legacy ? (i / 8) * 8 + (7 - i % 8) : i;
        out[8 + at] = bits[i];
      }
      return out;
    }
  }

  static byte[] randomKey(SplittableRandom r) {
    byte[] k = new byte[r.nextInt(0, 41)];
    r.nextBytes(k);
    return k;
  }

  @ParameterizedTest
  @CsvSource({"100000, 0.01, 1", "20000, 0.1, 2", "5000, 0.001, 3", "3000, 0.5, 4", "1, 0.01, 5"})
  void answersAndBytesEqualTheModel(int n, double fp, long seed) {
    CassandraBloomFilter f = CassandraBloomFilter.create(n, fp);
    Naive model = new Naive(f.numProbes(), f.sizeInBits() / 64);
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < n; i++) {
      byte[] k = randomKey(r);
      f.put(k);
      model.add(k);
    }
    byte[] bytes = f.toByteArray();
    assertArrayEquals(model.serialize(false), bytes);
    assertArrayEquals(model.serialize(true), f.toByteArray(CassandraBloomFilter.Layout.LEGACY));
    CassandraBloomFilter read = CassandraBloomFilter.readFrom(bytes);
    CassandraBloomFilter legacy =
        CassandraBloomFilter.readFrom(model.serialize(true), CassandraBloomFilter.Layout.LEGACY);
    assertEquals(f, read);
    assertEquals(f, legacy);
    int absentHits = 0;
    SplittableRandom present = new SplittableRandom(seed);
    for (int i = 0; i < n; i++) {
      byte[] k = randomKey(present);
      assertTrue(read.mayContain(k));
      assertTrue(model.isPresent(k));
    }
    SplittableRandom absent = new SplittableRandom(seed + 1000);
    int probes = Math.max(n, 1000);
    for (int i = 0; i < probes; i++) {
      byte[] k = new byte[absent.nextInt(8, 41)]; // 8+ random bytes: not among the present keys
      absent.nextBytes(k);
      boolean expected = model.isPresent(k);
      assertEquals(expected, read.mayContain(k));
      assertEquals(expected, legacy.mayContain(k));
      absentHits += expected ? 1 : 0;
    }
    if (n >= 5000) {
      // Binomial(probes, rate at fill) exceeds 1.5x its mean plus 5 sigma with prob < 1e-6.
      double p = f.expectedFpRate();
      assertTrue(
          absentHits <= 1.5 * probes * p + 5 * Math.sqrt(probes * p) + 5,
          absentHits + " false positives, rate at fill " + p);
    }
  }

  @Test
  void hashEqualsReferenceMurmur3BelowTheHighTailBytes() {
    SplittableRandom r = new SplittableRandom(11);
    int differed = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] k = randomKey(r);
      long[] ours = new long[2];
      CassandraBloomKernel.hash(k, 0, k.length, ours);
      assertArrayEquals(Naive.hash(k), ours);
      HashCode ref = Hashing.murmur3_128().hashBytes(k);
      ByteBuffer b = ByteBuffer.wrap(ref.asBytes()).order(ByteOrder.LITTLE_ENDIAN);
      long[] standard = {b.getLong(), b.getLong()};
      boolean highTail = false;
      for (int j = k.length & ~15; j < k.length; j++) {
        highTail |= k[j] < 0;
      }
      if (highTail) {
        differed += ours[0] != standard[0] || ours[1] != standard[1] ? 1 : 0;
      } else {
        assertArrayEquals(standard, ours);
      }
    }
    assertTrue(differed > 5_000, "the sign-extended tail changed only " + differed + " hashes");
    // One high byte in the tail: the reference hash and Cassandra's differ.
    byte[] k = {(byte) 0xff};
    long[] ours = new long[2];
    CassandraBloomKernel.hash(k, 0, 1, ours);
    assertNotEquals(Hashing.murmur3_128().hashBytes(k).asLong(), ours[0]);
  }

  @Test
  void murmur3PartitionerTokenOfIntKeyOne() {
    CassandraBloomFilter f = CassandraBloomFilter.create(10, 0.01);
    long[] h = new long[2];
    byte[] key = ByteBuffer.allocate(4).putInt(1).array(); // CQL int 1
    CassandraBloomKernel.hash(key, 0, 4, h);
    assertEquals(-4069959284402364209L, h[0]);
    assertFalse(f.mayContainInt(1));
    f.put(key);
    assertTrue(f.mayContainInt(1));
    f.put(7L);
    assertTrue(f.mayContain(ByteBuffer.allocate(8).putLong(7L).array()));
    f.put("partition");
    assertTrue(f.mayContain("partition".getBytes(StandardCharsets.UTF_8)));
  }

  @ParameterizedTest
  @CsvSource({
    // fp, k, bits per key: derived by hand from BloomCalculations' table
    "0.01, 5, 10",
    "0.1, 3, 5",
    "0.001, 7, 15",
    "0.5, 2, 1",
    "0.393, 2, 1",
    "0.392, 1, 3",
    "0.0001, 10, 20",
    "0.0000671, 14, 20"
  })
  void sizedAsCassandra(double fp, int k, int bitsPerKey) {
    long n = 12_345;
    CassandraBloomFilter f = CassandraBloomFilter.create(n, fp);
    assertEquals(k, f.numProbes());
    assertEquals((n * bitsPerKey + 20 + 63) / 64 * 64, f.sizeInBits());
  }

  /**
   * {@code fpChanceRange(b, k)} is exactly the set of rates the sizing maps to {@code (k, b)}:
   * every sampled rate falls in the range of the pair it is sized to, and each range's ends map to
   * its pair while the rate at {@code high} maps elsewhere.
   */
  @Test
  void fpChanceRangeInvertsTheSizing() {
    for (int i = 0; i <= 4000; i++) {
      double p = Math.exp(Math.log(6.71e-5) + i * (Math.log(0.999) - Math.log(6.71e-5)) / 4000);
      int[] kb = CassandraBloomFilter.spec(20, p);
      double[] r = CassandraBloomFilter.fpChanceRange(kb[1], kb[0]);
      assertTrue(r != null && r[0] <= p && p < r[1], p + " -> " + kb[0] + "," + kb[1]);
    }
    int pairs = 0;
    for (int b = 1; b <= 20; b++) {
      for (int k = 1; k <= 16; k++) {
        double[] r = CassandraBloomFilter.fpChanceRange(b, k);
        if (r == null) {
          continue;
        }
        pairs++;
        assertArrayEquals(new int[] {k, b}, CassandraBloomFilter.spec(20, r[0]), b + "," + k);
        assertArrayEquals(
            new int[] {k, b}, CassandraBloomFilter.spec(20, Math.nextDown(r[1])), b + "," + k);
        if (r[1] < 1) {
          int[] above = CassandraBloomFilter.spec(20, r[1]);
          assertTrue(above[0] != k || above[1] != b, b + "," + k);
        }
      }
    }
    assertTrue(pairs > 30, "pairs " + pairs);
    // the 1% default: k = 5 at 10 bits per key, sized for 0.943% up to 1.18%, not 2^-5 = 3.1%
    assertArrayEquals(
        new double[] {0.00943, 0.0118}, CassandraBloomFilter.fpChanceRange(10, 5), 0.0);
    assertNull(CassandraBloomFilter.fpChanceRange(10, 9)); // beyond the row's best k
    assertNull(CassandraBloomFilter.fpChanceRange(2, 1)); // row 2 is never chosen
  }

  @Test
  void sizingRefusals() {
    assertThrows(IllegalArgumentException.class, () -> CassandraBloomFilter.create(10, 6.7e-5));
    assertThrows(IllegalArgumentException.class, () -> CassandraBloomFilter.create(10, 1.0));
    assertThrows(IllegalArgumentException.class, () -> CassandraBloomFilter.create(10, 0.0));
    assertThrows(IllegalArgumentException.class, () -> CassandraBloomFilter.create(-1, 0.01));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> CassandraBloomFilter.create(Long.MAX_VALUE / 64, 0.01));
    assertTrue(e.getMessage().contains("words"), e.getMessage());
    assertEquals(64, CassandraBloomFilter.create(0, 0.01).sizeInBits()); // 0 keys: 20 bits
  }

  static byte[] header(int k, int words, int bodyBytes) {
    return ByteBuffer.allocate(8 + bodyBytes).putInt(k).putInt(words).array();
  }

  @Test
  void craftedHeaders() {
    assertFormat(new byte[0], 0, "header");
    assertFormat(new byte[7], 0, "header");
    assertFormat(header(0, 1, 8), 0, "hash count 0");
    assertFormat(header(-1, 1, 8), 0, "hash count -1");
    assertFormat(header(256, 1, 8), 0, "[1, 255]");
    assertFormat(header(Integer.MAX_VALUE, 1, 8), 0, "hash count");
    assertFormat(header(3, 0, 0), 4, "word count 0");
    assertFormat(header(3, -5, 8), 4, "word count -5");
    assertFormat(header(3, Integer.MAX_VALUE, 8), 4, "word count");
    assertFormat(header(3, Integer.MAX_VALUE - 8, 8), 4, "needs");
    assertFormat(header(3, 2, 8), 4, "needs 24 bytes, the filter has 16"); // truncated
    assertFormat(header(3, 1, 9), 4, "needs 16 bytes, the filter has 17"); // trailing
    CassandraBloomFilter ok = CassandraBloomFilter.readFrom(header(3, 1, 8));
    assertEquals(64, ok.sizeInBits());
    assertEquals(0, ok.numKeys());
  }

  private static void assertFormat(byte[] bytes, long offset, String text) {
    for (CassandraBloomFilter.Layout layout : CassandraBloomFilter.Layout.values()) {
      SieveFormatException e =
          assertThrows(
              SieveFormatException.class, () -> CassandraBloomFilter.readFrom(bytes, layout));
      assertEquals(offset, e.offset(), e.getMessage());
      assertTrue(e.getMessage().contains(text), e.getMessage());
    }
  }
}
