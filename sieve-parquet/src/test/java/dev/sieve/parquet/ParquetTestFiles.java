package dev.sieve.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Real {@code .parquet} files written by parquet-java (parquet-hadoop's example writer to a local
 * file), with Bloom filters on some columns: the files Sieve's reader is tested on.
 *
 * <p>Row {@code i} holds: {@code id = 2i} (INT64), {@code i32 = 3i} (INT32), {@code d = i / 4.0}
 * (DOUBLE), {@code f = i / 8f} (FLOAT), {@code name = "user:" + i} (BYTE_ARRAY, STRING), {@code fx}
 * = 16 bytes from {@code i} (FIXED_LEN_BYTE_ARRAY(16)), {@code plain = i} (INT64, no filter) and
 * {@code nested.tag = "t" + i % 50} (a STRING inside a group). Every column but {@code plain} has a
 * filter.
 */
final class ParquetTestFiles {
  private ParquetTestFiles() {}

  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message row {\n"
              + "  required int64 id;\n"
              + "  required int32 i32;\n"
              + "  required double d;\n"
              + "  required float f;\n"
              + "  required binary name (STRING);\n"
              + "  required fixed_len_byte_array(16) fx;\n"
              + "  required int64 plain;\n"
              + "  required group nested {\n"
              + "    required binary tag (STRING);\n"
              + "  }\n"
              + "}");

  static final String[] FILTERED = {"id", "i32", "d", "f", "name", "fx", "nested.tag"};

  static byte[] fixed(long i) {
    return ByteBuffer.allocate(16).putLong(i * 0x9E3779B97F4A7C15L).putLong(~i).array();
  }

  /**
   * Writes {@code rows} rows to {@code file}.
   *
   * @param rowGroupBytes parquet-java's row group size (small values give several row groups)
   * @param ndv the distinct-value hint for the filters, or 0 for parquet-java's default sizing
   */
  static Path write(Path file, int rows, long rowGroupBytes, long ndv) throws IOException {
    ExampleParquetWriter.Builder b =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withType(SCHEMA)
            .withRowGroupSize(rowGroupBytes)
            .withPageSize(4096)
            .withDictionaryEncoding(false);
    for (String c : FILTERED) {
      b = b.withBloomFilterEnabled(c, true);
      if (ndv > 0) {
        b = b.withBloomFilterNDV(c, ndv);
      }
    }
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> w = b.build()) {
      for (int i = 0; i < rows; i++) {
        Group g = groups.newGroup();
        g.add("id", 2L * i);
        g.add("i32", 3 * i);
        g.add("d", i / 4.0);
        g.add("f", i / 8f);
        g.add("name", "user:" + i);
        g.add("fx", Binary.fromConstantByteArray(fixed(i)));
        g.add("plain", (long) i);
        g.addGroup("nested").add("tag", "t" + (i % 50));
        w.write(g);
      }
    }
    return file;
  }
}
