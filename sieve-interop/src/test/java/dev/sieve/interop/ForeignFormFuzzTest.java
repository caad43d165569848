package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import dev.sieve.SieveFormatException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.Function;
import org.apache.datasketches.memory.Memory;

/**
 * One fuzz target for the four foreign forms Sieve reads: the first input byte picks the form
 * ({@link Form#of}), the rest is that form's bytes. One target instead of four costs CI one JVM and
 * one fuzz window in the {@code fuzz} profile; the seed corpus in {@code
 * ForeignFormFuzzTestInputs/fuzz} holds every form's seeds behind its tag byte ({@link
 * InteropFuzzCorpusGenerator}). An empty input gives every reader the empty array.
 *
 * <p>Each reader gives a typed error with a non-negative offset, or a filter that:
 *
 * <ul>
 *   <li>Guava ({@link GuavaBloomFilter#readFrom(byte[])}): writes the same bytes back and answers
 *       as Guava's own {@code readFrom} of the bytes (safe to call once ours has bounded the
 *       length);
 *   <li>Spark ({@link SparkBloomFilter#readFrom(byte[])}): the same, against Spark's sketch {@code
 *       readFrom}, for binary and long keys;
 *   <li>DataSketches ({@link DataSketchesBloomFilter#readFrom(byte[])}): answers as DataSketches'
 *       own {@code heapify} of the bytes and writes what DataSketches writes for them (where the
 *       owner runs on this JVM, {@link DataSketchesOracle});
 *   <li>Cassandra ({@link CassandraBloomFilter#readFrom(byte[], CassandraBloomFilter.Layout)}):
 *       writes the same bytes back in both layouts and answers as the bit-by-bit model ({@link
 *       CassandraBloomInteropTest.Naive}) over the same bits;
 * </ul>
 *
 * <p>and keeps a key added to it.
 */
class ForeignFormFuzzTest {

  /** The forms, in tag order: the first input byte modulo their number picks one. */
  enum Form {
    GUAVA,
    SPARK,
    DATASKETCHES,
    CASSANDRA;

    private static final Form[] ALL = values();

    /** {@return the form a first input byte {@code tag} picks} */
    static Form of(byte tag) {
      return ALL[(tag & 0xFF) % ALL.length];
    }

    /** {@return the first byte of an input for this form} */
    byte tag() {
      return (byte) ordinal();
    }
  }

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] input) throws IOException {
    if (input.length == 0) {
      for (Form form : Form.values()) {
        check(form, input);
      }
      return;
    }
    check(Form.of(input[0]), Arrays.copyOfRange(input, 1, input.length));
  }

  private static void check(Form form, byte[] data) throws IOException {
    switch (form) {
      case GUAVA -> guava(data);
      case SPARK -> spark(data);
      case DATASKETCHES -> dataSketches(data);
      case CASSANDRA -> cassandra(data);
    }
  }

  /** {@return what {@code reader} reads, or null on its typed error, whose offset is checked} */
  private static <T> T readOrNull(Function<byte[], T> reader, byte[] data) {
    try {
      return reader.apply(data);
    } catch (SieveFormatException e) {
      assertTrue(e.offset() >= 0, e.getMessage());
      return null;
    }
  }

  private static void guava(byte[] data) throws IOException {
    GuavaBloomFilter f = readOrNull(GuavaBloomFilter::readFrom, data);
    if (f == null) {
      return;
    }
    assertArrayEquals(data, f.toByteArray());
    BloomFilter<byte[]> guava =
        BloomFilter.readFrom(new ByteArrayInputStream(data), Funnels.byteArrayFunnel());
    for (int i = 0; i < 16; i++) {
      byte[] key = {(byte) i, (byte) data.length, (byte) (data.length >>> 8)};
      assertEquals(guava.mightContain(key), f.mayContain(key));
    }
    byte[] key = {42};
    f.put(key);
    assertTrue(f.mayContain(key));
  }

  private static void spark(byte[] data) throws IOException {
    SparkBloomFilter f = readOrNull(SparkBloomFilter::readFrom, data);
    if (f == null) {
      return;
    }
    assertArrayEquals(data, f.toByteArray());
    org.apache.spark.util.sketch.BloomFilter spark =
        org.apache.spark.util.sketch.BloomFilter.readFrom(new ByteArrayInputStream(data));
    for (int i = 0; i < 16; i++) {
      byte[] key = {(byte) i, (byte) data.length, (byte) (data.length >>> 8)};
      assertEquals(spark.mightContainBinary(key), f.mayContain(key));
      assertEquals(
          spark.mightContainLong(i * 31L + data.length), f.mayContain(i * 31L + data.length));
    }
    f.put(77L);
    assertTrue(f.mayContain(77L));
  }

  private static void dataSketches(byte[] data) {
    DataSketchesBloomFilter f = readOrNull(DataSketchesBloomFilter::readFrom, data);
    if (f == null) {
      return;
    }
    if (DataSketchesOracle.runs()) {
      // where the owner cannot run (DataSketchesOracle), Sieve's reader alone is checked
      org.apache.datasketches.filters.bloomfilter.BloomFilter ds =
          org.apache.datasketches.filters.bloomfilter.BloomFilter.heapify(Memory.wrap(data));
      byte[] owners = ds.toByteArray();
      if (owners.length == 24 && f.bitsSet() > 0) {
        // a recorded count of 0 over set bits: the owner writes the empty form and drops every
        // key; Sieve writes the non-empty form, the words with their own count, same parameters
        byte[] sieves = f.toByteArray();
        assertEquals(32 + f.sizeInBits() / 8, sieves.length, "the non-empty form");
        assertArrayEquals(
            Arrays.copyOfRange(owners, 4, 24), Arrays.copyOfRange(sieves, 4, 24), "parameters");
        assertEquals(
            f.bitsSet(), ByteBuffer.wrap(sieves).order(ByteOrder.LITTLE_ENDIAN).getLong(24));
      } else {
        assertArrayEquals(owners, f.toByteArray());
      }
      for (int i = 0; i < 16; i++) {
        byte[] key = {(byte) i, (byte) data.length, (byte) (data.length >>> 8)};
        assertEquals(ds.query(key), f.mayContain(key));
        assertEquals(ds.query(i * 31L + data.length), f.mayContain(i * 31L + data.length));
      }
    }
    f.put(77L);
    assertTrue(f.mayContain(77L));
  }

  private static void cassandra(byte[] data) {
    CassandraBloomFilter f = readOrNull(CassandraBloomFilter::readFrom, data);
    if (f == null) {
      return;
    }
    assertArrayEquals(data, f.toByteArray());
    byte[] legacy = f.toByteArray(CassandraBloomFilter.Layout.LEGACY);
    CassandraBloomFilter back =
        CassandraBloomFilter.readFrom(legacy, CassandraBloomFilter.Layout.LEGACY);
    assertEquals(f, back);
    CassandraBloomInteropTest.Naive model =
        new CassandraBloomInteropTest.Naive(f.numProbes(), f.sizeInBits() / 64);
    System.arraycopy(data, 8, model.bits, 0, model.bits.length);
    for (int i = 0; i < 16; i++) {
      byte[] key = {(byte) i, (byte) data.length, (byte) (data.length >>> 8), (byte) 0x90};
      assertEquals(model.isPresent(key), f.mayContain(key));
    }
    byte[] key = {42, (byte) 0xc3};
    f.put(key);
    assertTrue(f.mayContain(key));
  }
}
