package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.apache.datasketches.filters.bloomfilter.BloomFilter;
import org.apache.datasketches.filters.bloomfilter.BloomFilterBuilder;
import org.apache.datasketches.memory.Memory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link DataSketchesBloomFilter} against datasketches-java 6.2.0: reads answer as DataSketches for
 * 10^5 present and 10^5 absent keys (long, bytes, strings), writes are byte-identical to its {@code
 * toByteArray} and read back by its {@code heapify}; crafted headers give typed errors.
 */
class DataSketchesBloomInteropTest {

  @org.junit.jupiter.api.BeforeAll
  static void ownerRuns() {
    org.junit.jupiter.api.Assumptions.assumeTrue(DataSketchesOracle.runs(), DataSketchesOracle.WHY);
  }

  @ParameterizedTest
  @CsvSource({"1000, 0.01, 0", "30000, 0.03, 12345", "100000, 0.001, -9"})
  void readsAndWritesAsDataSketches(int n, double fpp, long seed) {
    BloomFilter ds = BloomFilterBuilder.createByAccuracy(n, fpp, seed);
    DataSketchesBloomFilter mine = DataSketchesBloomFilter.createByAccuracy(n, fpp, seed);
    assertArrayEquals(ds.toByteArray(), mine.toByteArray(), "empty");
    SplittableRandom random = new SplittableRandom(n);
    long[] longs = new long[n];
    byte[][] bytes = new byte[n][];
    for (int i = 0; i < n; i++) {
      longs[i] = random.nextLong();
      bytes[i] = new byte[random.nextInt(0, 30)];
      random.nextBytes(bytes[i]);
      if (i % 3 == 0) {
        ds.update(longs[i]);
        mine.put(longs[i]);
      } else if (i % 3 == 1) {
        ds.update(bytes[i]);
        mine.put(bytes[i]);
      } else {
        ds.update("s" + i);
        mine.put("s" + i);
      }
    }
    ds.update("");
    mine.put("");
    byte[] dsBytes = ds.toByteArray();
    assertArrayEquals(dsBytes, mine.toByteArray());
    DataSketchesBloomFilter read = DataSketchesBloomFilter.readFrom(dsBytes);
    BloomFilter back = BloomFilter.heapify(Memory.wrap(mine.toByteArray()));
    for (int i = 0; i < 100_000; i++) {
      int j = i % n;
      assertTrue(j % 3 == 0 ? read.mayContain(longs[j]) : true);
      assertTrue(j % 3 == 1 ? read.mayContain(bytes[j]) && back.query(bytes[j]) : true);
      long a = random.nextLong();
      assertEquals(ds.query(a), read.mayContain(a));
      byte[] b = new byte[random.nextInt(6, 30)];
      random.nextBytes(b);
      assertEquals(ds.query(b), read.mayContain(b));
      assertEquals(ds.query("t" + i), read.mayContain("t" + i));
    }
    assertEquals(ds.query(""), read.mayContain(""));
    assertEquals(ds.getBitsUsed(), read.bitsSet());
  }

  @Test
  void craftedHeadersAreTypedErrors() {
    byte[] ok = DataSketchesBloomFilter.createByAccuracy(100, 0.1, 1).toByteArray();
    assertEquals(24, ok.length);
    ByteBuffer hostile = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    hostile.put((byte) 4).put((byte) 1).put((byte) 21).put((byte) 0).putShort((short) 3);
    hostile.putShort((short) 0).putLong(0).putInt(0x7ffffff0).putInt(0).putLong(0);
    assertMessage(hostile.array(), "number of words 2147483632");
    byte[] c = ok.clone();
    c[2] = 7;
    assertMessage(c, "family id 7");
    c = ok.clone();
    c[1] = 2;
    assertMessage(c, "serial version 2");
    c = ok.clone();
    c[4] = 0;
    assertMessage(c, "hash functions 0");
    c = ok.clone();
    c[0] = 9;
    assertMessage(c, "preamble longs 9");
    for (int len = 0; len < 24; len++) {
      byte[] t = java.util.Arrays.copyOf(ok, len);
      assertThrows(SieveFormatException.class, () -> DataSketchesBloomFilter.readFrom(t));
    }
    assertMessage(java.util.Arrays.copyOf(ok, 25), "the filter has");
  }

  private static void assertMessage(byte[] bytes, String part) {
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> DataSketchesBloomFilter.readFrom(bytes));
    assertTrue(e.getMessage().contains(part), e.getMessage());
  }
}
