package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sieve.SieveFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The kept seed corpus of the foreign-form fuzz target ({@link ForeignFormFuzzTest}) is what {@link
 * InteropFuzzCorpusGenerator} writes from the owning libraries today (a library upgrade that
 * changes its bytes shows here), each seed behind its form's tag byte, and every seed says what it
 * was made to say: a whole filter is read, its first half is refused with a typed error.
 */
class InteropFuzzCorpusTest {

  @Test
  void keptSeedsAreTheOwnersBytesAndReadAsIntended() throws IOException {
    Map<ForeignFormFuzzTest.Form, Function<byte[], ?>> readers =
        Map.of(
            ForeignFormFuzzTest.Form.GUAVA, GuavaBloomFilter::readFrom,
            ForeignFormFuzzTest.Form.SPARK, SparkBloomFilter::readFrom,
            ForeignFormFuzzTest.Form.DATASKETCHES, DataSketchesBloomFilter::readFrom,
            ForeignFormFuzzTest.Form.CASSANDRA, CassandraBloomFilter::readFrom);
    int checked = 0;
    for (Map.Entry<ForeignFormFuzzTest.Form, Map<String, byte[]>> target :
        InteropFuzzCorpusGenerator.seeds(DataSketchesOracle.runs()).entrySet()) {
      ForeignFormFuzzTest.Form form = target.getKey();
      Function<byte[], ?> reader = readers.get(form);
      for (Map.Entry<String, byte[]> seed : target.getValue().entrySet()) {
        String resource = "/" + InteropFuzzCorpusGenerator.DIR + "/" + seed.getKey();
        byte[] kept;
        try (InputStream in = InteropFuzzCorpusTest.class.getResourceAsStream(resource)) {
          assertNotNull(in, "missing seed " + resource + ": run InteropFuzzCorpusGenerator");
          kept = in.readAllBytes();
        }
        assertArrayEquals(InteropFuzzCorpusGenerator.tagged(form, seed.getValue()), kept, resource);
        assertEquals(form, ForeignFormFuzzTest.Form.of(kept[0]), resource);
        byte[] bytes = Arrays.copyOfRange(kept, 1, kept.length);
        if (seed.getKey().endsWith("-cut")) {
          assertThrows(SieveFormatException.class, () -> reader.apply(bytes), resource);
        } else {
          assertNotNull(reader.apply(bytes), resource);
        }
        checked++;
      }
    }
    // 2 × (8 Guava + 12 Spark + 8 DataSketches + 8 Cassandra, the last by Sieve's writer)
    assertEquals(DataSketchesOracle.runs() ? 72 : 56, checked, "seeds checked");
  }
}
