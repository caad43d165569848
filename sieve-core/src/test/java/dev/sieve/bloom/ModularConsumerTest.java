package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.StringWriter;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sieve-core as a JPMS module in a consumer's build and run: a consumer module that requires {@code
 * dev.sieve.core} compiles with {@code -Werror -Xlint:all} (the descriptor's former {@code requires
 * static jdk.incubator.vector} made javac warn "using incubating module(s)" in every consumer
 * build), and the SIMD path is still taken when the consumer runs on the module path with {@code
 * --add-modules jdk.incubator.vector} (the read edge is added at run time), and on the class path,
 * and not without the module.
 */
class ModularConsumerTest {

  @TempDir static Path dir;
  private static Path out;
  private static String core;

  private static final String MAIN =
      "package consumer;\n"
          + "import dev.sieve.bloom.BlockedBloomFilter;\n"
          + "import dev.sieve.bloom.SplitBlockBloomFilter;\n"
          + "public final class Main {\n"
          + "  public static void main(String[] args) throws InterruptedException {\n"
          + "    long[] keys = new long[10_000];\n"
          + "    for (int i = 0; i < keys.length; i++) keys[i] = i * 0x9e3779b97f4a7c15L;\n"
          + "    BlockedBloomFilter b = BlockedBloomFilter.builder().bitsPerKey(10).build(keys);\n"
          + "    SplitBlockBloomFilter s = SplitBlockBloomFilter.builder().bitsPerKey(10).build(keys);\n"
          + "    long deadline = System.nanoTime() + 120_000_000_000L;\n"
          + "    long[] bits = new long[(keys.length + 63) / 64];\n"
          // the gate's warm-up starts after about 2^20 lookups (VectorGate): batches count by
          // length
          + "    while ((BlockedBloomFilter.usesVectorProbe() && !BlockedBloomFilter.vectorProbeActive()\n"
          + "        || SplitBlockBloomFilter.usesVectorProbe() && !SplitBlockBloomFilter.vectorProbeActive())\n"
          + "        && System.nanoTime() < deadline) {\n"
          + "      b.mayContainBatch(keys, 0, keys.length, bits);\n"
          + "      s.mayContainBatch(keys, 0, keys.length, bits);\n"
          + "      Thread.sleep(1);\n"
          + "    }\n"
          + "    for (long k : keys) if (!b.mayContain(k) || !s.mayContain(k)) throw new AssertionError(k);\n"
          + "    System.out.println(\"module=\" + Main.class.getModule().isNamed()\n"
          + "        + \" blocked=\" + BlockedBloomFilter.vectorProbeActive()\n"
          + "        + \" split=\" + SplitBlockBloomFilter.vectorProbeActive());\n"
          + "  }\n"
          + "}\n";

  @BeforeAll
  static void compileTheConsumer() throws Exception {
    core =
        Paths.get(
                BlockedBloomFilter.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI())
            .toString();
    assertTrue(
        Files.exists(Paths.get(core, "module-info.class")), "sieve-core's classes are a module");
    Path src = dir.resolve("src");
    Files.createDirectories(src.resolve("consumer"));
    Files.writeString(
        src.resolve("module-info.java"),
        "module sieve.consumer {\n  requires dev.sieve.core;\n}\n");
    Files.writeString(src.resolve("consumer").resolve("Main.java"), MAIN);
    out = dir.resolve("out");
    Files.createDirectories(out);
  }

  @Test
  void aConsumerModuleCompilesWithWerrorAndNoWarning() throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    Assumptions.assumeTrue(javac != null, "a JDK with javac");
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    StringWriter log = new StringWriter();
    Path src = dir.resolve("src");
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null)) {
      Iterable<? extends JavaFileObject> units =
          files.getJavaFileObjects(
              src.resolve("module-info.java"), src.resolve("consumer").resolve("Main.java"));
      List<String> options =
          List.of(
              "-Werror",
              "-Xlint:all",
              "--release",
              "17",
              "--module-path",
              core,
              "-d",
              out.toString());
      boolean ok = javac.getTask(log, files, diagnostics, options, null, units).call();
      StringBuilder said = new StringBuilder(log.toString());
      int warnings = 0;
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        said.append(d.getKind()).append(": ").append(d.getMessage(null)).append('\n');
        warnings += d.getKind() == Diagnostic.Kind.NOTE ? 0 : 1;
      }
      assertTrue(ok, "the consumer module compiles with -Werror:\n" + said);
      assertEquals(0, warnings, said.toString());
      assertTrue(log.toString().isEmpty(), "javac said: " + log);
    }
  }

  @Test
  void theVectorPathIsTakenOnTheModulePathAndTheClassPathWithTheModuleOnly() throws Exception {
    Assumptions.assumeTrue(
        ModuleFinder.ofSystem().find("jdk.incubator.vector").isPresent(),
        "this JDK has no jdk.incubator.vector");
    Assumptions.assumeTrue(ToolProvider.getSystemJavaCompiler() != null, "a JDK with javac");
    if (!Files.exists(out.resolve("consumer").resolve("Main.class"))) {
      aConsumerModuleCompilesWithWerrorAndNoWarning();
    }
    String modulePath = core + File.pathSeparator + out;
    assertEquals(
        "module=true blocked=true split=true",
        run(
            "--module-path",
            modulePath,
            "--add-modules",
            "jdk.incubator.vector",
            "-m",
            "sieve.consumer/consumer.Main"));
    assertEquals(
        "module=true blocked=false split=false",
        run("--module-path", modulePath, "-m", "sieve.consumer/consumer.Main"));
    assertEquals(
        "module=false blocked=true split=true",
        run("--add-modules", "jdk.incubator.vector", "-cp", modulePath, "consumer.Main"));
    assertEquals("module=false blocked=false split=false", run("-cp", modulePath, "consumer.Main"));
  }

  private static String run(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).start();
    String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the consumer ends");
    assertEquals(0, p.exitValue(), command + "\n" + stdout + stderr);
    return stdout.trim();
  }
}
