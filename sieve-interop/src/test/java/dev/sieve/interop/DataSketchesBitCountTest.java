package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyFilter;
import dev.sieve.format.SieveFormat;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.apache.datasketches.filters.bloomfilter.BloomFilter;
import org.apache.datasketches.filters.bloomfilter.BloomFilterBuilder;
import org.apache.datasketches.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * A DataSketches file whose "bits set" field disagrees with its words (0, or any other stale count)
 * still holds every key: written back, in DataSketches' form or in a Sieve container, it must hold
 * them too. Checked against datasketches-java itself where it runs.
 */
class DataSketchesBitCountTest {

  private static final int KEYS = 2000;

  /** DataSketches' own bytes for KEYS keys, with the bits-set field overwritten. */
  private static byte[] withRecordedCount(long recorded) {
    BloomFilter ds = BloomFilterBuilder.createByAccuracy(KEYS, 0.01, 42);
    for (int i = 0; i < KEYS; i++) {
      ds.update((long) i);
    }
    byte[] bytes = ds.toByteArray();
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(24, recorded);
    return bytes;
  }

  @Test
  void zeroBitsSetFieldIsWrittenBackWithTheWordsAndTheirCount() {
    org.junit.jupiter.api.Assumptions.assumeTrue(DataSketchesOracle.runs(), DataSketchesOracle.WHY);
    DataSketchesBloomFilter read = DataSketchesBloomFilter.readFrom(withRecordedCount(0));
    byte[] written = read.toByteArray();
    assertEquals(32 + 8 * (read.sizeInBits() / 64), written.length, "the non-empty form");
    assertEquals(
        read.bitsSet(), ByteBuffer.wrap(written).order(ByteOrder.LITTLE_ENDIAN).getLong(24));
    BloomFilter back = BloomFilter.heapify(Memory.wrap(written));
    BloomFilter original = BloomFilter.heapify(Memory.wrap(withRecordedCount(-1)));
    for (int i = 0; i < KEYS; i++) {
      assertTrue(read.mayContain((long) i), "Sieve, key " + i);
      assertTrue(back.query((long) i), "DataSketches reading Sieve's output, key " + i);
    }
    SplittableRandom random = new SplittableRandom(5);
    for (int i = 0; i < 20_000; i++) {
      long absent = random.nextLong();
      assertEquals(original.query(absent), back.query(absent), "absent key " + absent);
    }
    assertEquals(read.bitsSet(), back.getBitsUsed());
  }

  /**
   * The same form from Sieve's own writer (byte-identical to DataSketches', checked in {@link
   * DataSketchesBloomInteropTest}), for the JDKs DataSketches does not run on.
   */
  private static byte[] sieveWrittenWithRecordedCount(long recorded) {
    DataSketchesBloomFilter f = DataSketchesBloomFilter.createByAccuracy(KEYS, 0.01, 42);
    for (int i = 0; i < KEYS; i++) {
      f.put((long) i);
    }
    byte[] bytes = f.toByteArray();
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(24, recorded);
    return bytes;
  }

  @Test
  void staleBitsSetFieldSurvivesTheSieveContainer() {
    for (long recorded : new long[] {0, 1, 17}) {
      DataSketchesBloomFilter read =
          DataSketchesBloomFilter.readFrom(sieveWrittenWithRecordedCount(recorded));
      KeyFilter back = SieveFormat.read(SieveFormat.toBytes(read), KeyFilter.class);
      for (int i = 0; i < KEYS; i++) {
        assertTrue(back.mayContain((long) i), "recorded " + recorded + ", key " + i);
      }
      DataSketchesBloomFilter again = DataSketchesBloomFilter.readFrom(read.toByteArray());
      assertEquals(read, again, "recorded " + recorded);
    }
  }
}
