package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.Funnels;
import dev.sieve.SieveFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.datasketches.filters.bloomfilter.BloomFilter;
import org.apache.datasketches.filters.bloomfilter.BloomFilterBuilder;
import org.junit.jupiter.api.Test;

/**
 * {@link ForeignFormat}'s recognizers on files the owners' libraries wrote (Guava 33.5.0, Spark's
 * sketch 4.2.0, datasketches-java 6.2.0, and Cassandra's own {@code Filter.db} files kept as golden
 * files): each is recognized as its form and matches no other form; a short header, garbage, or a
 * size that disagrees with the header is not taken for a form, or is and its reader refuses it with
 * a typed error.
 */
class ForeignFormatTest {

  /** A real file: the form that wrote it and its bytes. */
  private record Sample(ForeignFormat form, String what, byte[] bytes) {}

  private static List<Sample> samples() throws IOException {
    List<Sample> s = new ArrayList<>();
    for (GuavaBloomFilter.Strategy strategy : GuavaBloomFilter.Strategy.values()) {
      for (int n : new int[] {1, 1000, 30_000}) {
        com.google.common.hash.BloomFilter<Long> g =
            GuavaBloomInteropTest.guava(Funnels.longFunnel(), n, 0.01, strategy);
        for (long i = 0; i < n; i++) {
          g.put(i);
        }
        s.add(new Sample(ForeignFormat.GUAVA, "guava " + strategy + " " + n, bytesOf(g)));
      }
    }
    for (org.apache.spark.util.sketch.BloomFilter.Version v :
        org.apache.spark.util.sketch.BloomFilter.Version.values()) {
      for (int n : new int[] {1, 1000, 40_000}) {
        org.apache.spark.util.sketch.BloomFilter sp =
            org.apache.spark.util.sketch.BloomFilter.create(v, n, 10L * n + 64, n);
        for (long i = 0; i < n; i++) {
          sp.putLong(i);
        }
        s.add(new Sample(ForeignFormat.SPARK, "spark " + v + " " + n, sparkBytes(sp, v)));
      }
    }
    if (DataSketchesOracle.runs()) {
      for (int n : new int[] {1000, 30_000}) {
        BloomFilter ds = BloomFilterBuilder.createByAccuracy(n, 0.01, 7);
        s.add(new Sample(ForeignFormat.DATASKETCHES, "datasketches empty " + n, ds.toByteArray()));
        for (long i = 0; i < n; i++) {
          ds.update(i);
        }
        s.add(new Sample(ForeignFormat.DATASKETCHES, "datasketches " + n, ds.toByteArray()));
      }
    }
    for (String file :
        new String[] {"3.11.17-1000-0.01", "4.1.5-300-0.1", "4.1.5-1000-0.01", "5.0.2-300-0.1"}) {
      s.add(new Sample(ForeignFormat.CASSANDRA, "cassandra " + file, cassandra(file)));
    }
    return s;
  }

  @Test
  void everyOwnersFileIsItsFormAndNoOther() throws IOException {
    List<Sample> samples = samples();
    List<ForeignFormat> forms =
        DataSketchesOracle.runs()
            ? List.of(
                ForeignFormat.GUAVA,
                ForeignFormat.SPARK,
                ForeignFormat.DATASKETCHES,
                ForeignFormat.CASSANDRA)
            : List.of(ForeignFormat.GUAVA, ForeignFormat.SPARK, ForeignFormat.CASSANDRA);
    for (ForeignFormat form : forms) {
      assertTrue(samples.stream().anyMatch(x -> x.form() == form), "samples of " + form);
    }
    for (Sample x : samples) {
      ByteBuffer head = head(x.bytes());
      assertEquals(x.form(), ForeignFormat.recognize(head, x.bytes().length), x.what());
      for (ForeignFormat other : ForeignFormat.values()) {
        assertEquals(
            other == x.form(), other.matches(head, x.bytes().length), x.what() + " as " + other);
      }
      assertEquals(x.bytes().length, x.form().claimedBytes(head), x.what());
      ForeignBloomFilter read = x.form().read(x.bytes());
      assertEquals(x.form().type(), dev.sieve.registry.FilterType.forClass(read.getClass()));
      assertArrayEquals(x.bytes(), x.form().write(read), x.what() + " written back");
      assertEquals(0, head.position(), "the head is left as it was");
    }
  }

  @Test
  void aSizeThatDisagreesWithTheHeaderIsRefused() throws IOException {
    for (Sample x : samples()) {
      for (int delta : new int[] {-8, -1, 1, 8}) {
        long size = x.bytes().length + delta;
        ForeignFormat seen = ForeignFormat.recognize(head(x.bytes()), size);
        byte[] resized = Arrays.copyOf(x.bytes(), (int) size);
        if (x.form() == ForeignFormat.DATASKETCHES) {
          // its own magic is recognized whatever the size past its header; its reader checks it
          assertEquals(size >= 24 ? ForeignFormat.DATASKETCHES : null, seen, x.what());
          SieveFormatException e =
              assertThrows(SieveFormatException.class, () -> x.form().read(resized), x.what());
          assertTrue(
              e.getMessage().contains(" " + size + " bytes") || e.getMessage().endsWith(" " + size),
              e.getMessage());
        } else {
          assertNull(seen, x.what() + " at " + size + " bytes");
          assertThrows(SieveFormatException.class, () -> x.form().read(resized), x.what());
        }
      }
    }
  }

  @Test
  void headersTooShortToSayAreNotRecognized() throws IOException {
    for (Sample x : samples()) {
      for (int cut = 0; cut < 6; cut++) {
        byte[] part = Arrays.copyOf(x.bytes(), cut);
        assertNull(ForeignFormat.recognize(head(part), part.length), x.what() + " cut " + cut);
        assertNull(
            ForeignFormat.recognize(head(part), x.bytes().length), x.what() + " head " + cut);
        assertEquals(-1, x.form().claimedBytes(head(part)), x.what() + " cut " + cut);
      }
    }
  }

  @Test
  void garbageIsNotRecognizedOrIsRefusedTyped() {
    byte[] text = "not a filter at all, just some text\n".getBytes(StandardCharsets.US_ASCII);
    assertNull(ForeignFormat.recognize(head(text), text.length));
    assertNull(ForeignFormat.recognize(head(new byte[64]), 64), "zeros");
    SplittableRandom random = new SplittableRandom(20240611L);
    int recognized = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] b = new byte[random.nextInt(0, 80)];
      random.nextBytes(b);
      // headers that fit a form in everything but the size: a random size rarely agrees
      if (i % 4 == 0 && b.length >= 8) {
        b[0] = (byte) random.nextInt(0, 5);
        b[1] = (byte) (i % 8 == 0 ? 1 : random.nextInt(0, 3));
        b[2] = (byte) (i % 16 == 0 ? 21 : 0);
        b[3] = 0;
      }
      ForeignFormat f = ForeignFormat.recognize(head(b), b.length);
      if (f == null) {
        continue;
      }
      recognized++;
      try {
        assertNotNull(f.read(b));
      } catch (SieveFormatException e) {
        assertTrue(e.offset() >= 0, e.getMessage());
      }
    }
    assertTrue(recognized > 0, "some crafted headers reach a reader");
  }

  @Test
  void sparkV2IsTriedBeforeCassandraWhereBothFit() {
    // version 2, k 2, seed 0, 1 word = 24 bytes; as Cassandra: k 2, 2 words = 24 bytes
    byte[] b = ByteBuffer.allocate(24).putInt(2).putInt(2).putInt(0).putInt(1).array();
    assertTrue(ForeignFormat.CASSANDRA.matches(head(b), b.length));
    assertEquals(ForeignFormat.SPARK, ForeignFormat.recognize(head(b), b.length));
    assertInstanceOf(SparkBloomFilter.class, ForeignFormat.SPARK.read(b));
  }

  @Test
  void theHeadIsReadFromItsPositionBigEndianWhateverItsOrder() throws IOException {
    byte[] guava = samples().get(1).bytes();
    ByteBuffer shifted = ByteBuffer.allocate(guava.length + 3).order(ByteOrder.LITTLE_ENDIAN);
    shifted.position(3);
    shifted.put(guava).position(3);
    assertEquals(ForeignFormat.GUAVA, ForeignFormat.recognize(shifted, guava.length));
    assertEquals(guava.length, ForeignFormat.GUAVA.claimedBytes(shifted));
    assertEquals(3, shifted.position());
    assertEquals(ByteOrder.LITTLE_ENDIAN, shifted.order());
  }

  @Test
  void cassandraFileNamesGiveTheLayout() throws IOException {
    byte[] legacy = cassandra("3.11.17-1000-0.01");
    ByteBuffer h = head(legacy);
    long n = legacy.length;
    assertEquals(ForeignFormat.CASSANDRA3, ForeignFormat.recognize("md-12-big-Filter.db", h, n));
    assertEquals(
        ForeignFormat.CASSANDRA3, ForeignFormat.recognize("ks-t-ma-1-big-Filter.db", h, n));
    assertEquals(ForeignFormat.CASSANDRA, ForeignFormat.recognize("nb-12-big-Filter.db", h, n));
    assertEquals(ForeignFormat.CASSANDRA, ForeignFormat.recognize("oa-2-big-Filter.db", h, n));
    assertEquals(ForeignFormat.CASSANDRA, ForeignFormat.recognize("da-1-bti-Filter.db", h, n));
    assertEquals(ForeignFormat.CASSANDRA, ForeignFormat.recognize("x-Filter.db", h, n));
    assertEquals(ForeignFormat.CASSANDRA, ForeignFormat.recognize("filter.bin", h, n));
    assertEquals(ForeignFormat.CASSANDRA, ForeignFormat.recognize(null, h, n));
    // by name whatever the bytes: the reader then judges them
    assertEquals(
        ForeignFormat.CASSANDRA3,
        ForeignFormat.recognize("mc-1-big-Filter.db", head(new byte[0]), 0));
    assertNull(ForeignFormat.recognize("mc-1-big-Filter.dbx", head(new byte[0]), 0));
    for (String old : new String[] {"la-1-big-Filter.db", "ks-t-ka-1-Filter.db"}) {
      SieveFormatException e =
          assertThrows(SieveFormatException.class, () -> ForeignFormat.recognize(old, h, n), old);
      assertTrue(e.getMessage().contains("pre-3.0 order"), e.getMessage());
    }
    // the legacy layout read as the current one loses keys; read as CASSANDRA3 it has them all
    ForeignBloomFilter wrong = ForeignFormat.CASSANDRA.read(legacy);
    assertTrue(
        java.util.stream.IntStream.range(0, 1000).anyMatch(i -> !wrong.mayContain("key-" + i)),
        "the current layout's reading of 3.x bytes");
    ForeignBloomFilter right = ForeignFormat.CASSANDRA3.read(legacy);
    for (int i = 0; i < 1000; i++) {
      assertTrue(right.mayContain("key-" + i), "key-" + i);
    }
    assertArrayEquals(legacy, ForeignFormat.CASSANDRA3.write(right));
    assertFalse(ForeignFormat.CASSANDRA3.matches(h, n), "never by the bytes alone");
  }

  @Test
  void namesAndTheWriterRefuseWhatIsNotTheirs() throws IOException {
    assertEquals(ForeignFormat.DATASKETCHES, ForeignFormat.named("DataSketches"));
    for (ForeignFormat f : ForeignFormat.values()) {
      assertEquals(f, ForeignFormat.named(f.formatName()));
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ForeignFormat.named("orc"));
    assertTrue(
        e.getMessage().contains("known: guava, spark, datasketches, cassandra, cassandra3"),
        e.getMessage());
    ForeignBloomFilter guava = ForeignFormat.GUAVA.read(samples().get(1).bytes());
    IllegalArgumentException w =
        assertThrows(IllegalArgumentException.class, () -> ForeignFormat.SPARK.write(guava));
    assertTrue(
        w.getMessage().contains("guava-bloom filter cannot be written as a spark"), w.getMessage());
    assertEquals(
        32 + 8L * DataSketchesBloomFilter.MAX_WORDS, ForeignFormat.DATASKETCHES.maxBytes());
    assertEquals(ForeignFormat.MAX_BYTES, ForeignFormat.GUAVA.maxBytes());
  }

  private static ByteBuffer head(byte[] bytes) {
    return ByteBuffer.wrap(bytes, 0, Math.min(ForeignFormat.HEAD_BYTES, bytes.length)).slice();
  }

  private static byte[] bytesOf(com.google.common.hash.BloomFilter<?> g) throws IOException {
    return GuavaBloomInteropTest.bytes(g);
  }

  private static byte[] sparkBytes(
      org.apache.spark.util.sketch.BloomFilter f,
      org.apache.spark.util.sketch.BloomFilter.Version v)
      throws IOException {
    byte[] b = SparkBloomInteropTest.bytes(f);
    assertEquals(v == org.apache.spark.util.sketch.BloomFilter.Version.V1 ? 1 : 2, b[3]);
    return b;
  }

  private static byte[] cassandra(String stem) throws IOException {
    try (InputStream in =
        ForeignFormatTest.class.getResourceAsStream("cassandra/" + stem + "-Filter.db")) {
      assertNotNull(in, "golden file " + stem);
      return in.readAllBytes();
    }
  }
}
