package dev.sieve.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The Spark guide's code compiles against this build of sieve-spark and Spark. The blocks that use
 * Spark need a Spark session and data sets to run, which {@link SieveSparkTest} provides for the
 * same calls; here each {@code java} block of {@code docs/spark.md} that the documentation's
 * example test leaves out (marked {@value #MARK}) is compiled as the body of a method whose
 * parameters are the data sets the guide names ({@code orders}, {@code keys}, {@code events}), so a
 * guide that no longer compiles against the API fails, naming the line.
 */
class SparkGuideExampleTest {

  private static final String GUIDE = "docs/spark.md";

  /**
   * What marks a block that sieve-cli's guide test leaves out for want of Spark on its classpath:
   * those blocks are this test's (the guide's other blocks are plain Java, which that test runs).
   */
  private static final String MARK = "<!-- not compiled:";

  private static final List<String> IMPORTS =
      List.of(
          "dev.sieve.registry.FilterType",
          "dev.sieve.spark.SieveSpark",
          "dev.sieve.spark.SparkFilter",
          "org.apache.spark.sql.Dataset",
          "org.apache.spark.sql.Row",
          "java.io.*",
          "java.nio.file.*",
          "java.util.*");

  /** A block: the guide's line of its first code line, its imports and its statements. */
  private record Block(int line, List<String> imports, List<String> body) {}

  private static Path guide() {
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve(GUIDE))) {
        return d.resolve(GUIDE);
      }
    }
    throw new AssertionError("no " + GUIDE + " in the working directory or above it");
  }

  private static List<Block> blocks(List<String> lines) {
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).equals("```java") || i == 0 || !lines.get(i - 1).startsWith(MARK)) {
        continue;
      }
      List<String> imports = new ArrayList<>();
      List<String> body = new ArrayList<>();
      int start = i + 2;
      for (i++; i < lines.size() && !lines.get(i).equals("```"); i++) {
        String l = lines.get(i);
        if (l.startsWith("import ")) {
          imports.add(l);
          body.add("");
        } else {
          body.add(l);
        }
      }
      blocks.add(new Block(start, imports, body));
    }
    return blocks;
  }

  /** The class for block {@code i}: one source line per guide line, from the block's first line. */
  private static String source(int i, Block b, List<String> header) {
    StringBuilder s = new StringBuilder();
    header.forEach(h -> s.append(h).append(' '));
    b.imports().forEach(im -> s.append(im).append(' '));
    s.append("class Block").append(i).append(" {");
    s.append(" static void run(Dataset<Row> orders, Dataset<Row> keys, Dataset<Row> events)");
    s.append(" throws Exception {\n");
    b.body().forEach(l -> s.append(l).append('\n'));
    s.append("}}\n");
    return s.toString();
  }

  @Test
  void everyBlockOfTheSparkGuideCompiles() throws IOException {
    Path guide = guide();
    List<Block> blocks = blocks(Files.readAllLines(guide, StandardCharsets.UTF_8));
    assertTrue(!blocks.isEmpty(), "no block marked " + MARK + " in " + GUIDE);
    List<String> header = new ArrayList<>();
    IMPORTS.forEach(im -> header.add("import " + im + ";"));
    List<JavaFileObject> units = new ArrayList<>();
    for (int i = 0; i < blocks.size(); i++) {
      String src = source(i, blocks.get(i), header);
      units.add(
          new SimpleJavaFileObject(
              URI.create("string:///Block" + i + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
              return src;
            }
          });
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path out = Files.createTempDirectory("spark-guide");
    boolean ok =
        javac
            .getTask(
                new StringWriter(),
                null,
                diagnostics,
                List.of(
                    "-proc:none",
                    "-d",
                    out.toString(),
                    "-classpath",
                    System.getProperty("java.class.path")),
                null,
                units)
            .call();
    List<String> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() == Diagnostic.Kind.ERROR) {
        int i = Integer.parseInt(d.getSource().getName().replaceAll("\\D", ""));
        long line = blocks.get(i).line() + d.getLineNumber() - 2;
        errors.add(GUIDE + ":" + line + ": " + d.getMessage(Locale.ROOT));
      }
    }
    assertTrue(
        ok && errors.isEmpty(), "the Spark guide does not compile:\n" + String.join("\n", errors));
  }
}
