package dev.sieve.parquet;

import static dev.sieve.testing.ModuleLauncher.compileAndRun;
import static dev.sieve.testing.ModuleLauncher.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sieve-parquet works as a JPMS module for a user on the module path: a small module that {@code
 * requires dev.sieve.parquet} (and names sieve-core's {@code SplitBlockBloomFilter} without
 * requiring {@code dev.sieve.core} itself, which {@code requires transitive} makes readable)
 * compiles against this build's classes and runs, reading every Bloom filter of a {@code .parquet}
 * file written by parquet-java. The module path holds exactly sieve-core and sieve-parquet, so a
 * missing {@code requires} or {@code exports}, or a run-time dependency beyond sieve-core, fails
 * the run. (The tests themselves run on the class path, as in every module.)
 */
class ModulePathTest {

  @Test
  void aModuleRequiringDevSieveParquetCompilesAndReadsAFile(@TempDir Path dir)
      throws IOException, InterruptedException {
    Path file = ParquetTestFiles.write(dir.resolve("small.parquet"), 50, 1 << 20, 50);
    int expected = ParquetTestFiles.FILTERED.length; // one row group, one filter per column
    String output =
        compileAndRun(
            dir,
            String.join(File.pathSeparator, entry("sieve-core"), entry("sieve-parquet")),
            "module smoke { requires dev.sieve.parquet; }\n",
            """
            package smoke;
            import dev.sieve.bloom.SplitBlockBloomFilter;
            import dev.sieve.parquet.ParquetFile;
            import java.nio.file.Path;
            public class Smoke {
              public static void main(String[] a) throws Exception {
                ParquetFile file = ParquetFile.open(Path.of(a[0]));
                int filters = 0;
                String module = "none";
                for (ParquetFile.ColumnChunk chunk : file.chunks()) {
                  ParquetFile.BloomFilter bloom = file.bloomFilter(chunk);
                  if (bloom != null) {
                    SplitBlockBloomFilter filter = bloom.filter();
                    module = filter.getClass().getModule().getName();
                    filters++;
                  }
                }
                System.out.println("ok " + filters + " " + module + " "
                    + ParquetFile.class.getModule().getName());
              }
            }
            """,
            file.toString());
    assertEquals("ok " + expected + " dev.sieve.core dev.sieve.parquet", output);
  }
}
