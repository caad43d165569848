package dev.sieve.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
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

  // The launcher below stands, the same, in sieve-cli's and sieve-parquet's ModulePathTest. It is
  // not shared: no module publishes a test-jar, and one would be a new test dependency of both.

  /** The main classes directory or jar of the module {@code m} on the test class path. */
  private static String entry(String m) {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> !e.endsWith("test-classes"))
        .filter(e -> e.contains(m + File.separator) || e.contains(File.separator + m + "-"))
        .findFirst()
        .orElseThrow(() -> new AssertionError(m + " is not on the test class path"));
  }

  /**
   * Compiles the module {@code smoke} ({@code moduleInfo} and {@code smoke.Smoke}'s {@code source})
   * against {@code modulePath} alone, runs {@code smoke.Smoke} with {@code args} on it and returns
   * what it printed; fails if either step does.
   */
  private static String compileAndRun(
      Path dir, String modulePath, String moduleInfo, String source, String... args)
      throws IOException, InterruptedException {
    Path src = Files.createDirectories(dir.resolve("src/smoke")).getParent();
    Path info = Files.writeString(src.resolve("module-info.java"), moduleInfo);
    Path smoke = Files.writeString(src.resolve("smoke/Smoke.java"), source);
    String out = dir.resolve("out").toString();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertNotNull(javac, "a JDK (javac) is needed");
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    String[] options = {
      "--module-path", modulePath, "-d", out, "-proc:none", info.toString(), smoke.toString()
    };
    assertEquals(
        0, javac.run(null, errors, errors, options), "the module does not compile:\n" + errors);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String path = out + File.pathSeparator + modulePath;
    List<String> command =
        new ArrayList<>(List.of(java, "--module-path", path, "-m", "smoke/smoke.Smoke"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the module run timed out");
    assertEquals(0, p.exitValue(), output);
    return output;
  }
}
