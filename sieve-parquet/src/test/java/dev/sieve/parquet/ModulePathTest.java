package dev.sieve.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

  /** The main classes directory or jar of the module {@code m} on the test class path. */
  private static String entry(String m) {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> !e.endsWith("test-classes"))
        .filter(e -> e.contains(m + File.separator) || e.contains(File.separator + m + "-"))
        .findFirst()
        .orElseThrow(() -> new AssertionError(m + " is not on the test class path"));
  }

  @Test
  void aModuleRequiringDevSieveParquetCompilesAndReadsAFile(@TempDir Path dir)
      throws IOException, InterruptedException {
    Path file = ParquetTestFiles.write(dir.resolve("small.parquet"), 50, 1 << 20, 50);
    int expected = ParquetTestFiles.FILTERED.length; // one row group, one filter per column
    String modulePath =
        String.join(File.pathSeparator, entry("sieve-core"), entry("sieve-parquet"));
    Path src = dir.resolve("src");
    Files.createDirectories(src.resolve("smoke"));
    Files.writeString(
        src.resolve("module-info.java"), "module smoke { requires dev.sieve.parquet; }\n");
    Files.writeString(
        src.resolve("smoke/Smoke.java"),
        String.join(
            "\n",
            "package smoke;",
            "import dev.sieve.bloom.SplitBlockBloomFilter;",
            "import dev.sieve.parquet.ParquetFile;",
            "import java.nio.file.Path;",
            "public class Smoke {",
            "  public static void main(String[] a) throws Exception {",
            "    ParquetFile file = ParquetFile.open(Path.of(a[0]));",
            "    int filters = 0;",
            "    String module = \"none\";",
            "    for (ParquetFile.ColumnChunk chunk : file.chunks()) {",
            "      ParquetFile.BloomFilter bloom = file.bloomFilter(chunk);",
            "      if (bloom != null) {",
            "        SplitBlockBloomFilter filter = bloom.filter();",
            "        module = filter.getClass().getModule().getName();",
            "        filters++;",
            "      }",
            "    }",
            "    System.out.println(\"ok \" + filters + \" \" + module + \" \"",
            "        + ParquetFile.class.getModule().getName());",
            "  }",
            "}",
            ""));
    Path out = dir.resolve("out");
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertNotNull(javac, "a JDK (javac) is needed");
    StringWriter errors = new StringWriter();
    boolean compiled =
        javac
            .getTask(
                errors,
                null,
                null,
                List.of("--module-path", modulePath, "-d", out.toString(), "-proc:none"),
                null,
                javac
                    .getStandardFileManager(null, null, StandardCharsets.UTF_8)
                    .getJavaFileObjects(
                        src.resolve("module-info.java"), src.resolve("smoke/Smoke.java")))
            .call();
    assertTrue(compiled, "the module does not compile:\n" + errors);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "--module-path",
                out + File.pathSeparator + modulePath,
                "-m",
                "smoke/smoke.Smoke",
                file.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the module run timed out");
    assertEquals(0, p.exitValue(), output);
    assertEquals("ok " + expected + " dev.sieve.core dev.sieve.parquet", output);
  }
}
