package dev.sieve.orc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.interop.OrcBloomFilter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgumentFactory;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.orc.impl.OrcIndex;
import org.apache.orc.impl.RecordReaderImpl;
import org.apache.orc.util.BloomFilter;
import org.apache.orc.util.BloomFilterIO;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link OrcFile} against orc-core over files orc-core writes (NONE, ZLIB, SNAPPY, LZ4 and ZSTD,
 * LZ4 through lz4-java as a test dependency; several fpp and strides): the same stripes, columns
 * and rows; for every column, stripe and row group the Bloom filter's probes and bytes equal what
 * orc-core's own reader ({@code RecordReaderImpl.readRowIndex}) returns, and its answers equal
 * orc-core's {@code BloomFilterIO.deserialize(...).test*} for the group's values and for absent
 * ones; and the rows orc-core returns for an equality search argument are exactly those of the row
 * groups Sieve's decision (statistics range, then Bloom filter) keeps.
 */
class OrcFileTest {

  /**
   * orc-core writes and reads files through Hadoop's {@code FileSystem}, whose {@code
   * UserGroupInformation} calls {@code Subject.getSubject}, which Java 23 and later no longer
   * support: there the owner cannot make the files, and these differential tests skip (they run on
   * CI's JDK 17 step). Sieve's ORC reader itself runs on every JDK ({@code CraftedOrcTest} and the
   * fuzz targets).
   */
  @org.junit.jupiter.api.BeforeAll
  static void hadoopRuns() {
    boolean runs;
    try {
      runs = org.apache.hadoop.security.UserGroupInformation.getCurrentUser() != null;
    } catch (UnsupportedOperationException | IOException e) {
      runs = false;
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(
        runs,
        "Hadoop's UserGroupInformation does not run on Java "
            + Runtime.version().feature()
            + " (Subject.getSubject unsupported): orc-core cannot write the test files");
  }

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}, fpp {1}, stride {2}")
  @CsvSource({
    "NONE, 0.05, 1000",
    "ZLIB, 0.05, 1000",
    "ZLIB, 0.01, 3000",
    "SNAPPY, 0.05, 1000",
    "LZ4, 0.03, 1000",
    "ZSTD, 0.02, 2000"
  })
  void filtersAndDecisionsEqualOrcCore(CompressionKind codec, double fpp, int stride)
      throws IOException {
    long rows = 8_000;
    Path path = OrcTestFiles.write(dir, "t-" + codec + ".orc", rows, codec, fpp, stride);
    Configuration conf = new Configuration(false);
    try (Reader reader =
            org.apache.orc.OrcFile.createReader(
                new org.apache.hadoop.fs.Path(path.toUri()),
                org.apache.orc.OrcFile.readerOptions(conf));
        RecordReader rr = reader.rows()) {
      OrcFile file = OrcFile.open(path);
      try {
        assertEquals(codec.name(), file.compression().name());
        assertEquals(reader.getNumberOfRows(), file.numberOfRows());
        assertEquals(stride, file.rowIndexStride());
        assertEquals(reader.getStripes().size(), file.stripes().size());
        assertTrue(file.stripes().size() > 1, "several stripes");
        assertEquals("l", file.column("l").name());
        assertEquals(OrcFile.Kind.STRING, file.column("s").kind());
        int types = reader.getSchema().getMaximumId() + 1;
        boolean[] all = new boolean[types];
        java.util.Arrays.fill(all, true);
        List<OrcFile.RowGroup> every = new ArrayList<>();
        for (int s = 0; s < file.stripes().size(); s++) {
          OrcIndex index = ((RecordReaderImpl) rr).readRowIndex(s, all, all);
          List<OrcFile.RowGroup> groups = file.rowGroups(s);
          every.addAll(groups);
          assertFalse(groups.isEmpty());
          for (OrcFile.RowGroup g : groups) {
            compare(reader, index, g);
          }
          // columns without a filter (n) have none
          assertTrue(groups.stream().noneMatch(g -> g.column().name().equals("n")));
        }
        checkSearchArguments(reader, file, every);
      } finally {
        file.close();
      }
    }
  }

  private static void compare(Reader reader, OrcIndex index, OrcFile.RowGroup g) {
    int col = g.column().id();
    OrcProto.BloomFilter proto = index.getBloomFilterIndex()[col].getBloomFilter(g.rowGroup());
    OrcProto.Stream.Kind kind = index.getBloomFilterKinds()[col];
    assertEquals(kind == OrcProto.Stream.Kind.BLOOM_FILTER_UTF8, g.utf8());
    OrcBloomFilter f = g.filter();
    assertNotNull(f);
    assertEquals(proto.getNumHashFunctions(), f.numHashFunctions());
    assertArrayEquals(proto.getUtf8Bitset().toByteArray(), f.utf8Bitset());
    assertEquals(g.rows(), f.numKeys());
    TypeDescription type = reader.getSchema().findSubtype(col);
    BloomFilter orc =
        BloomFilterIO.deserialize(
            kind,
            OrcProto.ColumnEncoding.newBuilder()
                .setKind(OrcProto.ColumnEncoding.Kind.DIRECT)
                .setBloomEncoding(1)
                .build(),
            reader.getWriterVersion(),
            type.getCategory(),
            proto);
    SplittableRandom random = new SplittableRandom(g.firstRow() * 7 + col);
    for (long r = g.firstRow(); r < g.firstRow() + g.rows(); r++) {
      long absent = random.nextLong();
      switch (g.column().name()) {
        case "l" -> {
          assertTrue(f.mayContain(OrcTestFiles.longValue(r)));
          assertEquals(orc.testLong(absent), f.mayContain(absent));
        }
        case "i" -> {
          assertTrue(f.mayContain(r));
          assertEquals(orc.testLong(absent), f.mayContain(absent));
        }
        case "d" -> {
          assertTrue(f.mayContainDouble(OrcTestFiles.doubleValue(r)));
          double a = Double.longBitsToDouble(absent >>> 2);
          assertEquals(orc.testDouble(a), f.mayContainDouble(a));
        }
        case "s" -> {
          String v = OrcTestFiles.stringValue(r);
          if (v != null) {
            assertTrue(f.mayContain(v));
          }
          String a = "absent" + absent;
          assertEquals(orc.testString(a), f.mayContain(a));
        }
        case "b" -> {
          assertTrue(f.mayContain(OrcTestFiles.binaryValue(r)));
          byte[] a = ("x" + absent).getBytes(java.nio.charset.StandardCharsets.UTF_8);
          assertEquals(orc.test(a), f.mayContain(a));
        }
        default -> throw new AssertionError("unexpected column " + g.column());
      }
    }
  }

  /** Rows orc-core returns for {@code column = value} equal the rows of the groups Sieve keeps. */
  private static void checkSearchArguments(
      Reader reader, OrcFile file, List<OrcFile.RowGroup> groups) throws IOException {
    SplittableRandom random = new SplittableRandom(99);
    for (int t = 0; t < 40; t++) {
      long row = random.nextLong(file.numberOfRows());
      boolean present = t % 2 == 0;
      String column = new String[] {"l", "i", "d", "s"}[t % 4];
      Object value;
      PredicateLeaf.Type type;
      switch (column) {
        case "l" -> {
          value = present ? OrcTestFiles.longValue(row) : random.nextLong();
          type = PredicateLeaf.Type.LONG;
        }
        case "i" -> {
          value = present ? row : (long) random.nextInt(50_000);
          type = PredicateLeaf.Type.LONG;
        }
        case "d" -> {
          value = present ? OrcTestFiles.doubleValue(row) : random.nextDouble() * 5000 - 1000;
          type = PredicateLeaf.Type.FLOAT;
        }
        default -> {
          String v = OrcTestFiles.stringValue(row);
          value = present && v != null ? v : "value-" + random.nextInt(30_000) + "x";
          type = PredicateLeaf.Type.STRING;
        }
      }
      SearchArgument sarg =
          SearchArgumentFactory.newBuilder().startAnd().equals(column, type, value).end().build();
      long orcRows = 0;
      try (RecordReader rr =
          reader.rows(reader.options().searchArgument(sarg, new String[] {column}))) {
        VectorizedRowBatch batch = reader.getSchema().createRowBatch();
        while (rr.nextBatch(batch)) {
          orcRows += batch.size;
        }
      }
      long sieveRows = 0;
      for (OrcFile.RowGroup g : groups) {
        if (g.column().name().equals(column) && OrcQuery.mayMatch(g, value.toString())) {
          sieveRows += g.rows();
        }
      }
      assertEquals(orcRows, sieveRows, column + " = " + value + ": rows orc-core reads");
    }
  }
}
