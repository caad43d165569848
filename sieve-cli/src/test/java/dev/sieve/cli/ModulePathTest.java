package dev.sieve.cli;

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
 * sieve-core and sieve-rocksdb work as JPMS modules for a user on the module path: a small module
 * that {@code requires dev.sieve.rocksdb} (and through it, transitively, {@code dev.sieve.core})
 * compiles against this build's classes and runs, writing a RocksDB filter block through {@code
 * dev.sieve.sst} and {@code dev.sieve.policy} and reading it back. The module path holds exactly
 * sieve-core, sieve-rocksdb and its one runtime dependency, aircompressor (an automatic module), so
 * a missing {@code requires} or a dependency not on the path fails the run. (The CLI and the bench
 * run on the class path from their shaded jars, as before; their own tests cover that.)
 */
class ModulePathTest {

  /**
   * The class-path entry (classes directory or jar) of the module whose path contains {@code m}.
   */
  private static String entry(String m) {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> e.contains(m + File.separator) || e.contains(File.separator + m + "-"))
        .findFirst()
        .orElseThrow(() -> new AssertionError(m + " is not on the test class path"));
  }

  @Test
  void aModuleRequiringDevSieveRocksdbCompilesAndRuns(@TempDir Path dir)
      throws IOException, InterruptedException {
    // sieve-rocksdb requires aircompressor (an automatic module) to decompress index blocks
    String modulePath =
        String.join(
            File.pathSeparator,
            entry("sieve-core"),
            entry("sieve-rocksdb"),
            entry("aircompressor"));
    Path src = dir.resolve("src");
    Files.createDirectories(src.resolve("smoke"));
    Files.writeString(
        src.resolve("module-info.java"), "module smoke { requires dev.sieve.rocksdb; }\n");
    Files.writeString(
        src.resolve("smoke/Smoke.java"),
        String.join(
            "\n",
            "package smoke;",
            "import dev.sieve.policy.FilterPolicy;",
            "import dev.sieve.sst.FilterBlockReader;",
            "import dev.sieve.sst.RocksDbFilterPolicy;",
            "import java.nio.charset.StandardCharsets;",
            "import java.util.List;",
            "public class Smoke {",
            "  public static void main(String[] a) {",
            "    byte[] key = \"user:7\".getBytes(StandardCharsets.UTF_8);",
            "    byte[] block = RocksDbFilterPolicy.parse(\"ribbon:10\")",
            "        .buildFilterBlock(List.of(key), 7, FilterPolicy.UNKNOWN_LEVEL);",
            "    boolean found = FilterBlockReader.read(block, 1).mayContain(key);",
            "    System.out.println(found ? \"ok \" + block.length : \"false negative\");",
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
                "smoke/smoke.Smoke")
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the module run timed out");
    assertEquals(0, p.exitValue(), output);
    assertTrue(output.startsWith("ok "), output);
  }
}
