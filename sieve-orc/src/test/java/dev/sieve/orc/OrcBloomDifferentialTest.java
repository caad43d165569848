package dev.sieve.orc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import dev.sieve.format.SieveFormat;
import dev.sieve.interop.OrcBloomFilter;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.apache.orc.OrcFile.WriterVersion;
import org.apache.orc.OrcProto;
import org.apache.orc.TypeDescription;
import org.apache.orc.util.BloomFilter;
import org.apache.orc.util.BloomFilterIO;
import org.apache.orc.util.BloomFilterUtf8;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link OrcBloomFilter} against orc-core's {@code BloomFilterUtf8}: for 10^5 present and 10^5
 * absent keys of each type (long, double, string, binary), built by both with the same sizing, the
 * bits are equal and every {@code test} answer equals Sieve's; the bytes Sieve writes (the {@code
 * BloomFilter} message of a {@code BLOOM_FILTER_UTF8} and of a {@code BLOOM_FILTER} stream) are
 * byte-identical to orc-core's {@code BloomFilterIO.serialize}, and orc-core's {@code deserialize}
 * reads them back to an equal filter; a filter converted to the Sieve container answers as the
 * original.
 */
class OrcBloomDifferentialTest {

  static final int KEYS = 100_000;

  @ParameterizedTest(name = "{0} keys at fpp {1}")
  @CsvSource({"100000, 0.05", "100000, 0.01", "1000, 0.05", "10, 0.2"})
  void answersAndBytesEqualOrcCore(int n, double fpp) {
    for (String type : new String[] {"long", "double", "string", "binary"}) {
      BloomFilterUtf8 orc = new BloomFilterUtf8(n, fpp);
      OrcBloomFilter sieve = OrcBloomFilter.create(n, fpp);
      assertEquals(KeyScheme.ORC_MURMUR3, sieve.keyScheme());
      assertEquals(orc.getNumHashFunctions(), sieve.numHashFunctions(), type + ": probes");
      assertEquals(orc.getBitSize(), sieve.sizeInBits(), type + ": bits");
      SplittableRandom random = new SplittableRandom(n * 31L + type.hashCode());
      Object[] present = keys(type, n, random);
      for (Object k : present) {
        add(orc, k);
        add(sieve, k);
      }
      assertArrayEquals(orc.getBitSet(), sieve.bitset(), type + ": bitset after adds");
      int mismatches = 0;
      int positives = 0;
      Object[] queries = keys(type, KEYS, random);
      for (int q = 0; q < KEYS; q++) {
        Object p = present[q % n];
        boolean orcP = test(orc, p);
        assertTrue(orcP, type + ": orc-core false negative");
        if (orcP != test(sieve, p)) {
          mismatches++;
        }
        boolean orcA = test(orc, queries[q]);
        positives += orcA ? 1 : 0;
        if (orcA != test(sieve, queries[q])) {
          mismatches++;
        }
      }
      assertEquals(0, mismatches, type + ": answers differing from orc-core");
      // absent keys: the rate is near the asked one, so the comparison saw both answers
      assertTrue(positives < KEYS, type + ": every absent key positive");
      checkStreams(orc, sieve, type);
      // the Sieve container keeps ORC's hashing: the converted filter answers as the original
      OrcBloomFilter converted = SieveFormat.read(SieveFormat.toBytes(sieve), OrcBloomFilter.class);
      assertEquals(KeyScheme.ORC_MURMUR3, converted.keyScheme());
      for (int q = 0; q < 2000; q++) {
        assertEquals(test(orc, queries[q]), test(converted, queries[q]), type + ": converted");
      }
    }
  }

  private static void checkStreams(BloomFilter orc, OrcBloomFilter sieve, String type) {
    OrcProto.BloomFilter.Builder b = OrcProto.BloomFilter.newBuilder();
    BloomFilterIO.serialize(b, orc);
    byte[] orcUtf8 = b.build().toByteArray();
    byte[] sieveUtf8 =
        OrcProto.BloomFilter.newBuilder()
            .setNumHashFunctions(sieve.numHashFunctions())
            .setUtf8Bitset(org.apache.orc.protobuf.ByteString.copyFrom(sieve.utf8Bitset()))
            .build()
            .toByteArray();
    assertArrayEquals(orcUtf8, sieveUtf8, type + ": BLOOM_FILTER_UTF8 message");
    OrcProto.BloomFilter parsed;
    try {
      parsed = OrcProto.BloomFilter.parseFrom(sieveUtf8);
    } catch (org.apache.orc.protobuf.InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
    BloomFilter back =
        BloomFilterIO.deserialize(
            OrcProto.Stream.Kind.BLOOM_FILTER_UTF8,
            OrcProto.ColumnEncoding.newBuilder()
                .setKind(OrcProto.ColumnEncoding.Kind.DIRECT)
                .setBloomEncoding(1)
                .build(),
            WriterVersion.ORC_135,
            TypeDescription.Category.STRING,
            parsed);
    assertEquals(orc, back, type + ": orc-core reads Sieve's UTF-8 stream back");
    // the original BLOOM_FILTER stream: the words as repeated fixed64, through Sieve's own reader
    BloomFilter plain = new BloomFilter(orc.getBitSet(), orc.getNumHashFunctions());
    OrcProto.BloomFilter.Builder pb = OrcProto.BloomFilter.newBuilder();
    BloomFilterIO.serialize(pb, plain);
    byte[] msg = pb.build().toByteArray();
    OrcBloomFilter read =
        OrcStripeIndex.bloomFilter(new ProtoReader(msg, 0, msg.length, 0, "BloomFilter"), false);
    assertArrayEquals(sieve.bitset(), read.bitset(), type + ": BLOOM_FILTER message read");
    OrcBloomFilter readUtf8 =
        OrcStripeIndex.bloomFilter(
            new ProtoReader(sieveUtf8, 0, sieveUtf8.length, 0, "BloomFilter"), true);
    assertArrayEquals(sieve.bitset(), readUtf8.bitset(), type + ": BLOOM_FILTER_UTF8 read");
  }

  static Object[] keys(String type, int n, SplittableRandom random) {
    Object[] out = new Object[n];
    for (int i = 0; i < n; i++) {
      long v = random.nextLong();
      out[i] =
          switch (type) {
            case "long" -> v;
            case "double" -> Double.longBitsToDouble(v >>> 2);
            case "string" -> "k" + Long.toString(v, 36) + (i % 3 == 0 ? "ü€" : "");
            default -> {
              byte[] b = new byte[random.nextInt(20)];
              for (int j = 0; j < b.length; j++) {
                b[j] = (byte) random.nextInt();
              }
              yield b;
            }
          };
    }
    return out;
  }

  static void add(BloomFilter f, Object k) {
    if (k instanceof Long l) {
      f.addLong(l);
    } else if (k instanceof Double d) {
      f.addDouble(d);
    } else if (k instanceof String s) {
      f.addString(s);
    } else {
      f.add((byte[]) k);
    }
  }

  static void add(OrcBloomFilter f, Object k) {
    if (k instanceof Long l) {
      f.add(l.longValue());
    } else if (k instanceof Double d) {
      f.addDouble(d);
    } else if (k instanceof String s) {
      f.add(s);
    } else {
      f.add((byte[]) k);
    }
  }

  static boolean test(BloomFilter f, Object k) {
    if (k instanceof Long l) {
      return f.testLong(l);
    } else if (k instanceof Double d) {
      return f.testDouble(d);
    } else if (k instanceof String s) {
      return f.testString(s);
    }
    return f.test((byte[]) k);
  }

  static boolean test(OrcBloomFilter f, Object k) {
    if (k instanceof Long l) {
      return f.mayContain(l.longValue());
    } else if (k instanceof Double d) {
      return f.mayContainDouble(d);
    } else if (k instanceof String s) {
      return f.mayContain(s);
    }
    return f.mayContain((byte[]) k);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
