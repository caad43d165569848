package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first example is real code (tested here, in a module without a module-info, so javac
 * is at hand): the {@code java} block after the marker {@value #MARKER} is compiled against this
 * build of sieve-core (its import lines as imports, the rest as a method body) and run. A README
 * that no longer compiles, or an example that throws, fails here.
 */
class ReadmeExampleTest {

  static final String MARKER = "<!-- compiled and run by ReadmeExampleTest -->";

  /** The marked block: its import lines, then its statements. */
  static List<List<String>> example(Path readme) throws IOException {
    List<String> lines = Files.readAllLines(readme, StandardCharsets.UTF_8);
    int at = lines.indexOf(MARKER);
    if (at < 0) {
      throw new AssertionError("README.md has no line " + MARKER);
    }
    if (!lines.get(at + 1).equals("```java")) {
      throw new AssertionError("the line after the marker must open a ```java block");
    }
    List<String> imports = new ArrayList<>();
    List<String> body = new ArrayList<>();
    for (int i = at + 2; !lines.get(i).equals("```"); i++) {
      String l = lines.get(i);
      (l.startsWith("import ") ? imports : body).add(l);
    }
    return List.of(imports, body);
  }

  @Test
  void readmeExampleCompilesAndRuns(@TempDir Path dir) throws Exception {
    List<List<String>> ex = example(Path.of("..", "README.md"));
    List<String> imports = ex.get(0);
    List<String> body = ex.get(1);
    assertTrue(!body.isEmpty() && body.size() <= 8, "a short example: " + body.size() + " lines");
    StringBuilder src = new StringBuilder();
    imports.forEach(l -> src.append(l).append('\n'));
    src.append("public class ReadmeExample {\n  public static void run() throws Exception {\n");
    body.forEach(l -> src.append("    ").append(l).append('\n'));
    src.append("  }\n}\n");
    Path file = dir.resolve("ReadmeExample.java");
    Files.writeString(file, src, StandardCharsets.UTF_8);

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertNotNull(javac, "a JDK (javac) is needed to compile the README example");
    StringWriter errors = new StringWriter();
    int rc =
        javac
                .getTask(
                    errors,
                    null,
                    null,
                    List.of(
                        "-classpath",
                        System.getProperty("java.class.path"),
                        "-d",
                        dir.toString(),
                        "-proc:none"),
                    null,
                    javac
                        .getStandardFileManager(null, null, StandardCharsets.UTF_8)
                        .getJavaFileObjects(file))
                .call()
            ? 0
            : 1;
    assertEquals(0, rc, "the README example does not compile:\n" + errors + "\n" + src);
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      Method run = loader.loadClass("ReadmeExample").getMethod("run");
      run.invoke(null);
    }
  }
}
