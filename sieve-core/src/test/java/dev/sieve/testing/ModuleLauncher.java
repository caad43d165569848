package dev.sieve.testing;

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

/**
 * Runs a small program as a JPMS module against a module path made of this build's jars, the way a
 * user on the module path meets them: the modules' tests run on the class path, so a missing {@code
 * requires}, {@code exports}, {@code uses} or {@code provides} shows only here.
 */
public final class ModuleLauncher {
  private ModuleLauncher() {}

  /** The main classes directory or jar of the module {@code m} on the test class path. */
  public static String entry(String m) {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> !e.endsWith("test-classes") && !e.endsWith("-tests.jar"))
        .filter(e -> e.contains(m + File.separator) || e.contains(File.separator + m + "-"))
        .findFirst()
        .orElseThrow(() -> new AssertionError(m + " is not on the test class path"));
  }

  /**
   * Compiles the module {@code smoke} ({@code moduleInfo} and {@code smoke.Smoke}'s {@code source})
   * against {@code modulePath} alone, runs {@code smoke.Smoke} with {@code args} on it and returns
   * what it printed; fails if either step does.
   */
  public static String compileAndRun(
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
