package dev.sieve.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small Parquet file whose one chunk claims 10^12 values over a 32-byte Bloom filter. Reading its
 * filter and its modelled rate (what {@code sieve inspect} reports) returns within 200 ms (a
 * term-by-term Poisson sum would run for minutes).
 */
class CraftedValueCountTest {

  private static final MessageType ONE_COLUMN =
      MessageTypeParser.parseMessageType("message row { required int64 id; }");

  /** Compact-protocol varint of the zigzag form of {@code v}. */
  private static byte[] zigzagVarint(long v) {
    long z = (v << 1) ^ (v >> 63);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while ((z & ~0x7FL) != 0) {
      out.write((int) ((z & 0x7F) | 0x80));
      z >>>= 7;
    }
    out.write((int) z);
    return out.toByteArray();
  }

  @Test
  void tenToTheTwelveValuesOverA32ByteFilter(@TempDir Path dir) throws Exception {
    Path real = dir.resolve("one.parquet");
    try (ParquetWriter<org.apache.parquet.example.data.Group> w =
        ExampleParquetWriter.builder(new LocalOutputFile(real))
            .withType(ONE_COLUMN)
            .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
            .withDictionaryEncoding(false)
            .withBloomFilterEnabled("id", true)
            .withBloomFilterNDV("id", 1)
            .build()) {
      w.write(new SimpleGroupFactory(ONE_COLUMN).newGroup().append("id", 42L));
    }
    byte[] file = Files.readAllBytes(real);
    int footerLength =
        ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    int footerStart = file.length - 8 - footerLength;
    // ColumnMetaData: codec (field 4, i32 0: 0x15 0x00), then num_values (field 5, i64 1: 0x16
    // 0x02); the offsets in the footer all point before it, so only its length changes
    int at = -1;
    for (int i = footerStart; i + 4 <= file.length - 8; i++) {
      if (file[i] == 0x15 && file[i + 1] == 0 && file[i + 2] == 0x16 && file[i + 3] == 2) {
        assertEquals(-1, at, "one ColumnMetaData.num_values of 1 expected");
        at = i + 3;
      }
    }
    assertTrue(at > 0, "ColumnMetaData.num_values not found");
    byte[] claim = zigzagVarint(1_000_000_000_000L);
    ByteArrayOutputStream crafted = new ByteArrayOutputStream();
    crafted.write(file, 0, at);
    crafted.write(claim);
    crafted.write(file, at + 1, file.length - 8 - (at + 1));
    crafted.write(
        ByteBuffer.allocate(4)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putInt(footerLength + claim.length - 1)
            .array());
    crafted.write(file, file.length - 4, 4);
    Path craftedFile = Files.write(dir.resolve("crafted.parquet"), crafted.toByteArray());

    ParquetFile pf = ParquetFile.open(craftedFile);
    ParquetFile.ColumnChunk chunk = pf.chunks().get(0);
    assertEquals(1_000_000_000_000L, chunk.numValues());
    ParquetFile.BloomFilter bf = pf.bloomFilter(chunk);
    assertEquals(32, bf.filter().sizeInBytes());
    double rate = assertTimeoutPreemptively(Duration.ofMillis(200), bf.filter()::modelledFpRate);
    assertEquals(1.0, rate, 1e-9);
  }
}
