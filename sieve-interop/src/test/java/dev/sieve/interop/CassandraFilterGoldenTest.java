package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.interop.CassandraBloomFilter.Layout;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link CassandraBloomFilter} against {@code Filter.db} files written by Cassandra's own code
 * ({@code FilterFactory.getFilter}, {@code BloomFilter.add}, its serializer) in versions 3.11.17
 * (the legacy layout), 4.1.5 and 5.0.2 (the current layout). The files and Cassandra's answers for
 * 2,000 absent keys were made by {@code scripts/cassandra-golden/generate.sh}.
 */
class CassandraFilterGoldenTest {

  private static final int PROBES = 2000;

  /** Each generated file: Cassandra's version, the keys, the fp chance and the layout it writes. */
  static Stream<Arguments> files() {
    return Stream.of(
        Arguments.of("3.11.17", 1000, "0.01", Layout.LEGACY),
        Arguments.of("3.11.17", 300, "0.1", Layout.LEGACY),
        Arguments.of("4.1.5", 1000, "0.01", Layout.CURRENT),
        Arguments.of("4.1.5", 300, "0.1", Layout.CURRENT),
        Arguments.of("5.0.2", 1000, "0.01", Layout.CURRENT),
        Arguments.of("5.0.2", 300, "0.1", Layout.CURRENT));
  }

  @ParameterizedTest(name = "Cassandra {0}, {1} keys at fp chance {2}")
  @MethodSource("files")
  void readsCassandrasFileAndAnswersEveryKeyAsCassandraDoes(
      String version, int keys, String fp, Layout layout) throws IOException {
    String stem = version + "-" + keys + "-" + fp;
    byte[] file = resource(stem + "-Filter.db");
    String answers = new String(resource(stem + "-answers.txt"), StandardCharsets.US_ASCII).trim();
    assertEquals(PROBES, answers.length());

    CassandraBloomFilter read = CassandraBloomFilter.readFrom(file, layout);
    for (int i = 0; i < keys; i++) {
      assertTrue(read.mayContain("key-" + i), "key-" + i + " was added by Cassandra");
    }
    int maybes = 0;
    for (int i = 0; i < PROBES; i++) {
      boolean cassandra = answers.charAt(i) == '1';
      maybes += cassandra ? 1 : 0;
      assertEquals(cassandra, read.mayContain("probe-" + i), "probe-" + i);
    }
    // Cassandra's absent answers must include some "maybe"s and mostly "absent"s, or the
    // comparison above proves little.
    assertTrue(maybes > 0 && maybes < PROBES / 4, maybes + " maybes of " + PROBES);
    assertArrayEquals(file, read.toByteArray(layout), "read then written back");
  }

  @ParameterizedTest(name = "Cassandra {0}, {1} keys at fp chance {2}")
  @MethodSource("files")
  void buildsTheSameBytesAsCassandraForTheSameKeysAndRate(
      String version, int keys, String fp, Layout layout) throws IOException {
    CassandraBloomFilter built = CassandraBloomFilter.create(keys, Double.parseDouble(fp));
    for (int i = 0; i < keys; i++) {
      built.put("key-" + i);
    }
    byte[] file = resource(version + "-" + keys + "-" + fp + "-Filter.db");
    assertArrayEquals(file, built.toByteArray(layout));
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in =
        CassandraFilterGoldenTest.class.getResourceAsStream("cassandra/" + name)) {
      assertNotNull(in, "golden file " + name);
      return in.readAllBytes();
    }
  }
}
