package dev.sieve.orc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;

/**
 * Writes real ORC files with orc-core into a test's temporary directory: columns {@code l}
 * (bigint), {@code i} (int), {@code d} (double), {@code s} (string), {@code b} (binary), {@code n}
 * (bigint without a Bloom filter), row {@code r} holding {@link #longValue}, {@link #doubleValue},
 * {@link #stringValue} and {@link #binaryValue} of {@code r}, every 7th string null.
 */
final class OrcTestFiles {
  private OrcTestFiles() {}

  static final TypeDescription SCHEMA =
      TypeDescription.fromString("struct<l:bigint,i:int,d:double,s:string,b:binary,n:bigint>");

  static long longValue(long r) {
    return r * 0x9E3779B97F4A7C15L >> 7;
  }

  static double doubleValue(long r) {
    return r * 0.37 - 1000.5;
  }

  static String stringValue(long r) {
    return r % 7 == 3 ? null : "value-" + r + (r % 5 == 0 ? "-é" : "");
  }

  static byte[] binaryValue(long r) {
    return ("bin" + (r * 31)).getBytes(StandardCharsets.UTF_8);
  }

  /** Writes {@code rows} rows; returns the file. */
  static Path write(
      Path dir, String name, long rows, CompressionKind compression, double fpp, int stride)
      throws IOException {
    Path file = dir.resolve(name);
    Files.deleteIfExists(file);
    Configuration conf = new Configuration(false);
    OrcFile.WriterOptions options =
        OrcFile.writerOptions(conf)
            .setSchema(SCHEMA)
            .compress(compression)
            .bloomFilterColumns("l,i,d,s,b")
            .bloomFilterFpp(fpp)
            .rowIndexStride(stride)
            .stripeSize(64L * 1024)
            .bufferSize(8 * 1024);
    try (Writer writer =
        OrcFile.createWriter(new org.apache.hadoop.fs.Path(file.toUri()), options)) {
      VectorizedRowBatch batch = SCHEMA.createRowBatch(1024);
      LongColumnVector l = (LongColumnVector) batch.cols[0];
      LongColumnVector i = (LongColumnVector) batch.cols[1];
      DoubleColumnVector d = (DoubleColumnVector) batch.cols[2];
      BytesColumnVector s = (BytesColumnVector) batch.cols[3];
      BytesColumnVector b = (BytesColumnVector) batch.cols[4];
      LongColumnVector n = (LongColumnVector) batch.cols[5];
      for (long r = 0; r < rows; r++) {
        int row = batch.size++;
        l.vector[row] = longValue(r);
        i.vector[row] = (int) r;
        d.vector[row] = doubleValue(r);
        String sv = stringValue(r);
        if (sv == null) {
          s.noNulls = false;
          s.isNull[row] = true;
        } else {
          s.isNull[row] = false;
          s.setVal(row, sv.getBytes(StandardCharsets.UTF_8));
        }
        b.setVal(row, binaryValue(r));
        n.vector[row] = r;
        if (batch.size == batch.getMaxSize()) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
      if (batch.size > 0) {
        writer.addRowBatch(batch);
      }
    }
    return file;
  }
}
