package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sieve.SieveFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The kept seed corpora of the foreign-form fuzz targets are what {@link
 * InteropFuzzCorpusGenerator} writes from the owning libraries today (a library upgrade that
 * changes its bytes shows here), and every seed says what it was made to say: a whole filter is
 * read, its first half is refused with a typed error.
 */
class InteropFuzzCorpusTest {

  @Test
  void keptSeedsAreTheOwnersBytesAndReadAsIntended() throws IOException {
    Map<String, Function<byte[], ?>> readers =
        Map.of(
            "GuavaFormFuzzTest", GuavaBloomFilter::readFrom,
            "SparkFormFuzzTest", SparkBloomFilter::readFrom,
            "DataSketchesFormFuzzTest", DataSketchesBloomFilter::readFrom,
            "CassandraFormFuzzTest", CassandraBloomFilter::readFrom);
    int checked = 0;
    for (Map.Entry<String, Map<String, byte[]>> target :
        InteropFuzzCorpusGenerator.seeds(DataSketchesOracle.runs()).entrySet()) {
      Function<byte[], ?> reader = readers.get(target.getKey());
      for (Map.Entry<String, byte[]> seed : target.getValue().entrySet()) {
        String resource = target.getKey() + "Inputs/fuzz/" + seed.getKey();
        byte[] kept;
        try (InputStream in = InteropFuzzCorpusTest.class.getResourceAsStream(resource)) {
          assertNotNull(in, "missing seed " + resource + ": run InteropFuzzCorpusGenerator");
          kept = in.readAllBytes();
        }
        assertArrayEquals(seed.getValue(), kept, resource);
        if (seed.getKey().endsWith("-cut")) {
          assertThrows(SieveFormatException.class, () -> reader.apply(kept), resource);
        } else {
          assertNotNull(reader.apply(kept), resource);
        }
        checked++;
      }
    }
    // 2 × (8 Guava + 12 Spark + 8 DataSketches + 8 Cassandra, the last by Sieve's writer)
    assertEquals(DataSketchesOracle.runs() ? 72 : 56, checked, "seeds checked");
  }
}
