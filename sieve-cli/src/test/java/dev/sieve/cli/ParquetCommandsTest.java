package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.column.values.bloomfilter.BloomFilter;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sieve inspect FILE.parquet} and {@code sieve query FILE.parquet COLUMN VALUE...} on a file
 * written by parquet-java: the report's columns and JSON keys, answers identical to parquet-java's
 * own filter check, and one-line errors with exit 1 (bad file) or 2 (bad usage: unknown column, a
 * value that does not parse).
 */
class ParquetCommandsTest {
  static final int ROWS = 4000;

  @TempDir static Path dir;
  static Path file;

  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message row { required int64 id; required int32 n; required double d; required float f;"
              + " required binary name (STRING); required fixed_len_byte_array(4) fx;"
              + " required int64 plain; }");

  @BeforeAll
  static void write() throws IOException {
    file = dir.resolve("t.parquet");
    ExampleParquetWriter.Builder b =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withType(SCHEMA)
            .withRowGroupSize(32L * 1024)
            .withPageSize(4096)
            .withDictionaryEncoding(false);
    for (String c : new String[] {"id", "n", "d", "f", "name", "fx"}) {
      b = b.withBloomFilterEnabled(c, true).withBloomFilterNDV(c, 1000);
    }
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> w = b.build()) {
      for (int i = 0; i < ROWS; i++) {
        Group g = groups.newGroup();
        g.add("id", 2L * i);
        g.add("n", -i);
        g.add("d", i * 0.5);
        g.add("f", i * 0.25f);
        g.add("name", "user:" + i);
        g.add("fx", Binary.fromConstantByteArray(new byte[] {1, 2, (byte) (i >> 8), (byte) i}));
        g.add("plain", (long) i);
        w.write(g);
      }
    }
  }

  @Test
  void inspectListsEveryChunk() {
    CliRun r = CliRun.of("inspect", file.toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("format:") && r.out().contains("parquet"), r.out());
    assertTrue(r.out().contains("with a Bloom filter"), r.out());
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("id ") && l.contains("<= ")), r.out());
    assertTrue(
        r.out().lines().anyMatch(l -> l.startsWith("plain ") && l.contains("none")), r.out());
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("name ") && l.contains("STRING")));
    assertFalse(r.out().contains(" 0.0000%"), "an unknown distinct count is never shown as 0%");

    CliRun j = CliRun.of("inspect", file.toString(), "--json");
    assertEquals(0, j.status(), j.err());
    String json = j.out().strip();
    assertEquals(1, json.lines().count());
    assertTrue(json.startsWith("{\"format\": \"parquet\""), json);
    assertTrue(json.contains("\"column\": \"fx\""), json);
    assertTrue(json.contains("\"distinct_count\": null"), json);
    assertTrue(json.contains("\"modelled_fpr_basis\": \"non_null_values_upper_bound\""), json);
    assertTrue(json.contains("\"bloom_filter\": false"), json); // the plain column
  }

  @Test
  void queryAnswersAsParquetJava() throws IOException {
    // a present and an absent value per column, and what parquet-java's filters say
    String[][] cases = {
      {"id", "2", "3"},
      {"n", "-5", "5"},
      {"d", "1.5", "0.25"},
      {"f", "0.75", "0.1"},
      {"name", "user:7", "user:x"},
      {"fx", "01020007", "01020000ff"},
    };
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      List<BlockMetaData> blocks = reader.getFooter().getBlocks();
      for (String[] c : cases) {
        boolean hex = c[0].equals("fx");
        String[] args =
            hex
                ? new String[] {"query", file.toString(), c[0], c[1], "--hex"}
                : new String[] {"query", file.toString(), c[0], c[1], c[2]};
        CliRun r = CliRun.of(args);
        assertEquals(0, r.status(), r.err());
        String[] lines = r.out().split("\n");
        assertTrue(lines[0].startsWith(c[1] + "\tmaybe\t"), r.out());
        if (!hex) {
          // the absent value: the row groups listed are exactly those parquet-java's filter keeps
          StringBuilder keep = new StringBuilder();
          for (int g = 0; g < blocks.size(); g++) {
            for (ColumnChunkMetaData m : blocks.get(g).getColumns()) {
              if (m.getPath().toDotString().equals(c[0])) {
                BloomFilter bf = reader.getBloomFilterDataReader(blocks.get(g)).readBloomFilter(m);
                if (bf.findHash(bf.hash(theirs(c[0], c[2])))) {
                  keep.append(keep.length() == 0 ? "" : ",").append(g);
                }
              }
            }
          }
          String expected = c[2] + "\t" + (keep.length() == 0 ? "absent\t-" : "maybe\t" + keep);
          assertEquals(expected, lines[1], c[0]);
        }
      }
    }
    // a row group without a filter for the column is always read
    CliRun plain = CliRun.of("query", file.toString(), "plain", "-1");
    assertEquals(0, plain.status(), plain.err());
    assertTrue(plain.out().startsWith("-1\tmaybe\t0"), plain.out());
  }

  private static Object theirs(String column, String text) {
    switch (column) {
      case "id":
        return Long.parseLong(text);
      case "n":
        return Integer.parseInt(text);
      case "d":
        return Double.parseDouble(text);
      case "f":
        return Float.parseFloat(text);
      default:
        return Binary.fromString(text);
    }
  }

  @Test
  void queryReadsValuesFromStdin() {
    java.io.InputStream saved = System.in;
    try {
      System.setIn(
          new java.io.ByteArrayInputStream(
              "user:1\nuser:2\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      CliRun r = CliRun.of("query", file.toString(), "name");
      assertEquals(0, r.status(), r.err());
      List<String> lines = r.out().lines().toList();
      assertEquals(2, lines.size(), r.out());
      assertTrue(
          lines.get(0).startsWith("user:1\tmaybe\t0") && lines.get(1).startsWith("user:2\t"));
      System.setIn(
          new java.io.ByteArrayInputStream(
              "4\nfour\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      CliRun bad = CliRun.of("query", file.toString(), "id");
      assertEquals(1, bad.status());
      assertTrue(bad.out().startsWith("4\t"), bad.out());
      assertTrue(bad.err().contains("stdin line 2") && bad.err().contains("'four'"), bad.err());
    } finally {
      System.setIn(saved);
    }
  }

  @Test
  void errorsAreOneLine() throws IOException {
    CliRun unknown = CliRun.of("query", file.toString(), "nope", "1");
    assertEquals(2, unknown.status());
    assertEquals(1, unknown.err().strip().lines().count(), unknown.err());
    assertTrue(unknown.err().contains("no column 'nope'"), unknown.err());

    CliRun notInt = CliRun.of("query", file.toString(), "id", "12x");
    assertEquals(2, notInt.status());
    assertEquals(1, notInt.err().strip().lines().count(), notInt.err());
    assertTrue(notInt.err().contains("'12x' is not a value of column id"), notInt.err());
    assertEquals("", notInt.out());

    CliRun wrongLength = CliRun.of("query", file.toString(), "fx", "0102", "--hex");
    assertEquals(2, wrongLength.status());
    assertTrue(wrongLength.err().contains("exactly 4"), wrongLength.err());

    CliRun noColumn = CliRun.of("query", file.toString());
    assertEquals(2, noColumn.status());

    // a corrupt footer: one line, exit 1, no stack trace
    byte[] bytes = Files.readAllBytes(file);
    byte[] cut = Arrays.copyOf(bytes, bytes.length - 3);
    Path bad = dir.resolve("bad.parquet");
    Files.write(bad, cut);
    for (String cmd : new String[] {"inspect", "query"}) {
      CliRun r =
          cmd.equals("inspect")
              ? CliRun.of(cmd, bad.toString())
              : CliRun.of(cmd, bad.toString(), "id", "1");
      assertEquals(1, r.status(), r.err());
      assertEquals(1, r.err().strip().lines().count(), r.err());
      assertTrue(r.err().contains("PAR1"), r.err());
      assertFalse(r.err().contains("Exception"), r.err());
    }
  }

  /**
   * A column without a Bloom filter answers {@code maybe} for every row group and says that it has
   * no filter to ask.
   */
  @Test
  void aColumnWithoutABloomFilterSaysSo() {
    CliRun r = CliRun.of("query", file.toString(), "plain", "5", "123456789");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().startsWith("5\tmaybe\t0"), r.out());
    assertTrue(r.out().contains("123456789\tmaybe\t"), "no filter: the reader reads every group");
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(r.err().contains("'plain' has no Bloom filter in any of its"), r.err());
    CliRun withFilter = CliRun.of("query", file.toString(), "id", "2");
    assertEquals("", withFilter.err(), "a column with filters gets no note");
  }
}
