package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden files: a container of every filter type written by format version 1 and checked in. The
 * current code must read each one and answer exactly as recorded when it was written, so a change
 * that breaks old files fails here (as Guava pins its serialized BloomFilter form). The Bloom
 * filters, being bit-exact RocksDB filters, must also still be built byte for byte the same (the
 * growable one too: its stage sizes and rates are part of what it promises).
 */
class SieveFormatGoldenTest {

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = SieveFormatGoldenTest.class.getResourceAsStream("golden/" + name)) {
      assertNotNull(in, "missing golden file " + name);
      return in.readAllBytes();
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sieve.format.TestTypes#builtIn") // foreign: ForeignContainerTest
  void readsTheGoldenFileAndAnswersAsRecorded(FilterType type) throws IOException {
    byte[] bytes = resource(GoldenFiles.fileName(type));
    String[] lines =
        new String(resource(GoldenFiles.answersName(type)), StandardCharsets.US_ASCII).split("\n");
    String recorded = lines[1].trim();
    assertEquals(GoldenFiles.QUERIES, recorded.length());
    for (Filter filter :
        new Filter[] {SieveFormat.read(bytes), SieveFormat.wrap(ByteBuffer.wrap(bytes))}) {
      assertEquals(type.filterClass(), filter.getClass());
      assertEquals(GoldenFiles.BUILT, filter.numKeys());
      long[] queries = GoldenFiles.queryKeys();
      for (int i = 0; i < queries.length; i++) {
        boolean expected = recorded.charAt(i) == '1';
        assertEquals(expected, filter.mayContain(queries[i]), type + " query " + i);
      }
      // the format is canonical: writing what was read gives the file back
      assertArrayEquals(bytes, SieveFormat.toBytes(filter));
    }
    // every built key was recorded present (a golden file with a false negative is itself wrong)
    assertTrue(recorded.substring(0, GoldenFiles.BUILT).chars().allMatch(c -> c == '1'));
  }

  /**
   * Every type is still built byte for byte as the golden file was, through the registry's builder
   * under XXPH3 ({@link TestFilters#buildGolden}; Cuckoo by adds): the typed-key API and the shared
   * code of the fingerprint filters changed no filter's bytes.
   */
  @ParameterizedTest
  @MethodSource("dev.sieve.format.TestTypes#builtIn") // foreign: ForeignContainerTest
  void everyTypeIsStillBuiltByteForByte(FilterType type) throws IOException {
    assertArrayEquals(
        resource(GoldenFiles.fileName(type)),
        SieveFormat.toBytes(TestFilters.buildGolden(type, GoldenFiles.builtKeys())));
  }
}
