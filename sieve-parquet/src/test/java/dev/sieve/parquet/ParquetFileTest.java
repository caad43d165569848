package dev.sieve.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import dev.sieve.bloom.SplitBlockBloomFilter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.column.values.bloomfilter.BloomFilter;
import org.apache.parquet.hadoop.BloomFilterReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ParquetFile} on real files written by parquet-java: every column chunk and filter found,
 * each filter's bitset identical to the one parquet-java's own reader returns, present values
 * always "maybe", and the same answer as parquet-java's filter for every value asked (present or
 * absent); then hostile footers and filter headers, made by editing a real file.
 */
class ParquetFileTest {
  static final int ROWS = 6000;

  @TempDir static Path dir;
  static Path multi; // several row groups, filters sized from an NDV hint
  static Path single; // one row group, parquet-java's default sizing
  static Path small; // 50 rows, one row group, small filters: for the byte-by-byte tests

  @BeforeAll
  static void writeFiles() throws IOException {
    multi = ParquetTestFiles.write(dir.resolve("multi.parquet"), ROWS, 64 * 1024, 2000);
    single = ParquetTestFiles.write(dir.resolve("single.parquet"), ROWS, 64L << 20, 0);
    small = ParquetTestFiles.write(dir.resolve("small.parquet"), 50, 1 << 20, 50);
  }

  @Test
  void findsEveryChunkAndFilter() throws IOException {
    for (Path file : new Path[] {multi, single}) {
      ParquetFile pf = ParquetFile.open(file);
      assertEquals(
          List.of("id", "i32", "d", "f", "name", "fx", "plain", "nested.tag"),
          pf.columns().stream().map(ParquetFile.Column::dottedPath).toList());
      assertEquals(ParquetFile.PhysicalType.FIXED_LEN_BYTE_ARRAY, pf.column("fx").type());
      assertEquals(16, pf.column("fx").typeLength());
      assertEquals("STRING", pf.column("nested.tag").annotation());
      assertEquals(pf.numRowGroups() * 8, pf.chunks().size());
      long rows = 0;
      for (ParquetFile.ColumnChunk c : pf.chunks()) {
        assertEquals(
            !c.column().dottedPath().equals("plain"), c.hasBloomFilter(), c.column().dottedPath());
        if (c.column().dottedPath().equals("id")) {
          rows += c.numValues();
        }
        if (!c.hasBloomFilter()) {
          assertNull(pf.bloomFilter(c));
        }
      }
      assertEquals(ROWS, rows);
      assertEquals(pf.chunks(), ParquetFile.parse(Files.readAllBytes(file)).chunks());
    }
    assertTrue(ParquetFile.open(multi).numRowGroups() > 2, "the test wants several row groups");
  }

  @Test
  void everyFilterIsParquetJavasAndAnswersAsItDoes() throws IOException {
    for (Path file : new Path[] {multi, single}) {
      ParquetFile pf = ParquetFile.open(file);
      try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
        List<BlockMetaData> blocks = reader.getFooter().getBlocks();
        assertEquals(blocks.size(), pf.numRowGroups());
        long firstRow = 0;
        int checked = 0;
        for (int g = 0; g < blocks.size(); g++) {
          BlockMetaData block = blocks.get(g);
          BloomFilterReader bfr = reader.getBloomFilterDataReader(block);
          for (ColumnChunkMetaData meta : block.getColumns()) {
            String path = meta.getPath().toDotString();
            ParquetFile.ColumnChunk chunk = chunk(pf, g, path);
            BloomFilter theirs = bfr.readBloomFilter(meta);
            if (theirs == null) {
              assertFalse(chunk.hasBloomFilter(), path);
              continue;
            }
            ParquetFile.BloomFilter read = pf.bloomFilter(chunk);
            assertNotNull(read, path);
            SplitBlockBloomFilter ours = read.filter();
            // a filter read from a Parquet file hashes its keys as Parquet does
            assertEquals(dev.sieve.KeyScheme.PARQUET_XXH64, ours.keyScheme(), path);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            theirs.writeTo(bytes);
            assertArrayEquals(bytes.toByteArray(), ours.toParquetBitset(), path + " rg " + g);
            assertEquals(block.getRowCount(), chunk.numValues());
            // present rows of this group, then the other rows (absent here) and beyond
            for (long i = 0; i < ROWS + 3000; i++) {
              boolean present = i >= firstRow && i < firstRow + block.getRowCount();
              Object value = value(path, i);
              long theirHash = theirs.hash(value);
              String text = text(path, i);
              long ourHash = ParquetValues.hash(chunk.column(), text, path.equals("fx"));
              assertEquals(theirHash, ourHash, path + " value " + text);
              boolean answer = ours.mayContainHash(ourHash);
              assertEquals(theirs.findHash(theirHash), answer, path + " value " + text);
              // the key form of the column's type answers alike (the filter's scheme is Parquet's)
              boolean keyAnswer = answer;
              if (value instanceof Long l) {
                keyAnswer = ours.mayContain(l.longValue());
              } else if (value instanceof Integer n) {
                keyAnswer = ours.mayContainInt(n);
              } else if (value instanceof Double d) {
                keyAnswer = ours.mayContainDouble(d);
              } else if (value instanceof Float f) {
                keyAnswer = ours.mayContainFloat(f);
              } else if (value instanceof Binary b) {
                keyAnswer = ours.mayContain(b.getBytes());
              }
              assertEquals(answer, keyAnswer, path + " key form " + text);
              if (present) {
                assertTrue(answer, "false negative: " + path + " row " + i + " in group " + g);
              }
              checked++;
            }
            // the model FPR is evaluated at the chunk's value count (no distinct count stored)
            assertEquals(-1, chunk.distinctCount());
            assertEquals(chunk.numValues(), ours.numKeys());
            assertTrue(ours.modelledFpRate() > 0 && ours.modelledFpRate() < 1);
          }
          firstRow += block.getRowCount();
        }
        assertTrue(checked > 0);
      }
    }
  }

  private static ParquetFile.ColumnChunk chunk(ParquetFile pf, int group, String path) {
    for (ParquetFile.ColumnChunk c : pf.chunks()) {
      if (c.rowGroup() == group && c.column().dottedPath().equals(path)) {
        return c;
      }
    }
    throw new AssertionError("no chunk " + path + " in group " + group);
  }

  /** Row {@code i}'s value of the column, as parquet-java's filter hashes it. */
  private static Object value(String path, long i) {
    switch (path) {
      case "id":
        return 2L * i;
      case "i32":
        return (int) (3 * i);
      case "d":
        return i / 4.0;
      case "f":
        return i / 8f;
      case "name":
        return Binary.fromString("user:" + i);
      case "fx":
        return Binary.fromConstantByteArray(ParquetTestFiles.fixed(i));
      case "nested.tag":
        return Binary.fromString("t" + (i % 50 + (i >= ROWS ? 50 : 0)));
      default:
        throw new AssertionError(path);
    }
  }

  /** The same value as the CLI's text. */
  private static String text(String path, long i) {
    switch (path) {
      case "id":
        return Long.toString(2L * i);
      case "i32":
        return Integer.toString((int) (3 * i));
      case "d":
        return Double.toString(i / 4.0);
      case "f":
        return Float.toString(i / 8f);
      case "name":
        return "user:" + i;
      case "fx":
        {
          StringBuilder b = new StringBuilder();
          for (byte x : ParquetTestFiles.fixed(i)) {
            b.append(String.format("%02x", x));
          }
          return b.toString();
        }
      default:
        return "t" + (i % 50 + (i >= ROWS ? 50 : 0));
    }
  }

  // ---------------------------------------------------------------- hostile files

  @Test
  void badFootersAreTypedErrors() throws IOException {
    byte[] file = Files.readAllBytes(small);
    assertThrows(SieveFormatException.class, () -> ParquetFile.parse(new byte[0]));
    assertThrows(SieveFormatException.class, () -> ParquetFile.parse("PAR1PAR1PAR1".getBytes()));
    byte[] noMagic = file.clone();
    noMagic[0] = 'X';
    assertEquals(
        0, assertThrows(SieveFormatException.class, () -> ParquetFile.parse(noMagic)).offset());
    byte[] encrypted = file.clone();
    encrypted[file.length - 1] = 'E';
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> ParquetFile.parse(encrypted));
    assertTrue(e.getMessage().contains("encrypted"), e.getMessage());
    // a footer length past the file, and one at the limit, before anything is allocated
    for (int len : new int[] {file.length, Integer.MAX_VALUE, -1}) {
      byte[] b = file.clone();
      java.nio.ByteBuffer.wrap(b)
          .order(java.nio.ByteOrder.LITTLE_ENDIAN)
          .putInt(file.length - 8, len);
      SieveFormatException le =
          assertThrows(SieveFormatException.class, () -> ParquetFile.parse(b));
      assertEquals(file.length - 8, le.offset(), le.getMessage());
    }
    // every truncation of the file is refused with a typed error (never another exception)
    for (int cut = 0; cut < file.length; cut++) {
      byte[] b = Arrays.copyOf(file, cut);
      assertThrows(SieveFormatException.class, () -> ParquetFile.parse(b), "cut at " + cut);
    }
  }

  /** Every single-byte change of the footer: a typed error or a file that still reads. */
  @Test
  void everyFooterByteChangeIsHandled() throws IOException {
    byte[] file = Files.readAllBytes(small);
    int footerLen =
        java.nio.ByteBuffer.wrap(file, file.length - 8, 4)
            .order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .getInt();
    int from = file.length - 8 - footerLen;
    List<String> outcomes = new ArrayList<>();
    for (int at = from; at < file.length - 8; at++) {
      for (int x : new int[] {0x01, 0x80, 0xFF}) {
        byte[] b = file.clone();
        b[at] ^= (byte) x;
        try {
          ParquetFile pf = ParquetFile.parse(b);
          for (ParquetFile.ColumnChunk c : pf.chunks()) {
            try {
              pf.bloomFilter(c);
            } catch (SieveFormatException ignored) {
              // a filter whose header or place changed: typed
            }
          }
          outcomes.add("ok");
        } catch (SieveFormatException ex) {
          assertTrue(ex.offset() >= 0, ex.getMessage());
          outcomes.add("refused");
        }
      }
    }
    assertTrue(outcomes.contains("refused") && outcomes.contains("ok"), outcomes.toString());
  }

  @Test
  void badFilterHeadersAreTypedErrors() throws IOException {
    byte[] file = Files.readAllBytes(small);
    ParquetFile pf = ParquetFile.parse(file);
    ParquetFile.ColumnChunk c = pf.chunks().get(0);
    ParquetFile.BloomFilter bf = pf.bloomFilter(c);
    int at = (int) c.bloomFilterOffset();
    // numBytes is field 1, an i32 zigzag varint right after the field header byte 0x15
    assertEquals(0x15, file[at] & 0xFF);
    // a header with another algorithm (union member 2) is refused by name
    byte[] other =
        new byte[] {
          0x15,
          (byte) 0x80,
          0x04,
          0x1C,
          0x2C,
          0x00,
          0x00,
          0x1C,
          0x1C,
          0x00,
          0x00,
          0x1C,
          0x1C,
          0x00,
          0x00,
          0x00
        };
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class,
            () -> BloomFilterHeader.read(new ThriftCompactReader(other, 0, other.length, 0)));
    assertTrue(e.getMessage().contains("algorithm"), e.getMessage());
    byte[] good =
        new byte[] {
          0x15,
          (byte) 0x80,
          0x04,
          0x1C,
          0x1C,
          0x00,
          0x00,
          0x1C,
          0x1C,
          0x00,
          0x00,
          0x1C,
          0x1C,
          0x00,
          0x00,
          0x00
        };
    assertEquals(256, BloomFilterHeader.read(new ThriftCompactReader(good, 0, good.length, 0)));
    byte[] missing = {0x15, (byte) 0x80, 0x04, 0x00};
    assertThrows(
        SieveFormatException.class,
        () -> BloomFilterHeader.read(new ThriftCompactReader(missing, 0, missing.length, 0)));
    assertTrue(bf.headerBytes() > 0 && bf.headerBytes() < 32);
    // lengths and offsets from a (corrupt) footer: refused before reading or allocating
    for (long[] shape :
        new long[][] {
          {c.bloomFilterOffset(), Integer.MAX_VALUE},
          {c.bloomFilterOffset(), c.bloomFilterLength() - 1},
          {c.bloomFilterOffset(), c.bloomFilterLength() + 1},
          {c.bloomFilterOffset(), 0},
          {file.length - 9, -1},
          {file.length, -1},
          {0, -1},
          {c.bloomFilterOffset() + 1, -1},
        }) {
      ParquetFile.ColumnChunk bad =
          new ParquetFile.ColumnChunk(
              c.rowGroup(),
              c.column(),
              c.numValues(),
              c.nullCount(),
              c.distinctCount(),
              shape[0],
              (int) shape[1]);
      SieveFormatException ex =
          assertThrows(
              SieveFormatException.class,
              () -> pf.bloomFilter(bad),
              "offset " + shape[0] + " length " + shape[1]);
      assertTrue(ex.offset() >= 0, ex.getMessage());
    }
  }
}
