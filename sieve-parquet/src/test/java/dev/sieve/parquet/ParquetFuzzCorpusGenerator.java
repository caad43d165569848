package dev.sieve.parquet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes the seed corpus of {@link ParquetFileFuzzTest} (small files written by parquet-java, and
 * their halves) and {@link ThriftCompactFuzzTest} (their footers and a Bloom filter header). Run
 * once from the sieve-parquet directory with the test class path (not part of the suite): {@code
 * java -cp target/test-classes:target/classes:<test deps>
 * dev.sieve.parquet.ParquetFuzzCorpusGenerator src/test/resources}.
 */
public final class ParquetFuzzCorpusGenerator {
  private ParquetFuzzCorpusGenerator() {}

  public static void main(String[] args) throws IOException {
    Path root =
        Path.of(args.length > 0 ? args[0] : "src/test/resources").resolve("dev/sieve/parquet");
    Path files = root.resolve("ParquetFileFuzzTestInputs/fuzz");
    Path thrift = root.resolve("ThriftCompactFuzzTestInputs/fuzz");
    Files.createDirectories(files);
    Files.createDirectories(thrift);
    Path tmp = Files.createTempDirectory("sieve-parquet-corpus");
    int[][] shapes = {{3, 1 << 20, 2}, {40, 1 << 20, 40}, {300, 4096, 100}};
    for (int[] s : shapes) {
      Path f = ParquetTestFiles.write(tmp.resolve("f" + s[0] + ".parquet"), s[0], s[1], s[2]);
      byte[] bytes = Files.readAllBytes(f);
      String name = "seed-rows" + s[0];
      Files.write(files.resolve(name), bytes);
      Files.write(files.resolve(name + "-cut"), Arrays.copyOf(bytes, bytes.length / 2));
      int footerLen =
          java.nio.ByteBuffer.wrap(bytes, bytes.length - 8, 4)
              .order(java.nio.ByteOrder.LITTLE_ENDIAN)
              .getInt();
      Files.write(
          thrift.resolve(name + "-footer"),
          Arrays.copyOfRange(bytes, bytes.length - 8 - footerLen, bytes.length - 8));
      ParquetFile pf = ParquetFile.parse(bytes);
      ParquetFile.ColumnChunk c = pf.chunks().get(0);
      int at = (int) c.bloomFilterOffset();
      Files.write(thrift.resolve(name + "-bloom-header"), Arrays.copyOfRange(bytes, at, at + 32));
      Files.delete(f);
    }
    Files.delete(tmp);
  }
}
