package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block of README.md and of docs/*.md is real code, compiled against this
 * build (sieve-core, sieve-rocksdb, sieve-parquet, sieve-orc, and the test classpath's Guava) and
 * run.
 *
 * <p>The rule: a block is compiled unless the line just before its opening fence is {@code <!-- not
 * compiled: REASON -->} with a reason. Its {@code import} lines become imports ({@code java.io},
 * {@code java.nio.file} and {@code java.util} are imported in every block). A block with a line
 * that starts with {@code static } (at column 0) declares methods: it is compiled as the members of
 * a class and not run (for code that needs a file of the reader's own). Any other block is the body
 * of a method that is run; it may throw {@link AssertionError} to prove what the prose says. A
 * block that does not compile, or throws, fails this test naming the file and the line.
 */
class GuideExamplesTest {

  static final String SKIP = "<!-- not compiled: ";

  /** One {@code ```java} block: where it is, its imports, and its other lines with their lines. */
  record Block(String file, int line, List<String> imports, List<String> body, List<Integer> at) {
    boolean declaresMembers() {
      return body.stream().anyMatch(l -> l.startsWith("static "));
    }

    String where() {
      return file + ":" + line;
    }
  }

  static Path root() {
    return Path.of("..").toAbsolutePath().normalize();
  }

  /** README.md, then docs/*.md in name order. */
  static List<Path> documents() throws IOException {
    List<Path> docs = new ArrayList<>();
    docs.add(root().resolve("README.md"));
    try (Stream<Path> s = Files.list(root().resolve("docs"))) {
      s.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }

  /** The compiled blocks of one document; blocks marked not compiled must give a reason. */
  static List<Block> blocks(Path doc) throws IOException {
    String name = root().relativize(doc).toString();
    List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
    List<Block> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).strip().equals("```java")) {
        continue;
      }
      int open = i;
      List<String> imports = new ArrayList<>();
      List<String> body = new ArrayList<>();
      List<Integer> at = new ArrayList<>();
      for (i++; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
        String l = lines.get(i);
        if (l.startsWith("import ")) {
          imports.add(l);
        } else {
          body.add(l);
          at.add(i + 1);
        }
      }
      String before = open > 0 ? lines.get(open - 1).strip() : "";
      if (before.startsWith(SKIP)) {
        String reason = before.substring(SKIP.length()).replace("-->", "").strip();
        if (reason.isEmpty()) {
          throw new AssertionError(name + ":" + (open + 1) + ": 'not compiled' needs a reason");
        }
        continue;
      }
      out.add(new Block(name, open + 1, imports, body, at));
    }
    return out;
  }

  static List<Block> allBlocks() throws IOException {
    List<Block> all = new ArrayList<>();
    for (Path doc : documents()) {
      all.addAll(blocks(doc));
    }
    return all;
  }

  static String className(int i) {
    return "DocExample" + i;
  }

  /** The source of block {@code i}: its imports, then its lines in a method or as members. */
  static String source(Block b, int i, List<Integer> lineOfSource) {
    StringBuilder src = new StringBuilder();
    src.append("import java.io.*; import java.nio.file.*; import java.util.*;\n");
    lineOfSource.add(b.line());
    for (String l : b.imports()) {
      src.append(l).append('\n');
      lineOfSource.add(b.line());
    }
    src.append("public class ").append(className(i)).append(" {\n");
    lineOfSource.add(b.line());
    boolean members = b.declaresMembers();
    if (!members) {
      src.append("public static void run() throws Exception {\n");
      lineOfSource.add(b.line());
    }
    for (int k = 0; k < b.body().size(); k++) {
      src.append(b.body().get(k)).append('\n');
      lineOfSource.add(b.at().get(k));
    }
    src.append(members ? "}\n" : "}}\n");
    return src.toString();
  }

  /**
   * Compiles the blocks and runs those that are statements: the list of failures, each naming the
   * document and line.
   */
  static List<String> compileAndRun(List<Block> blocks, Path dir) throws Exception {
    List<String> failures = new ArrayList<>();
    List<List<Integer>> lineMaps = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < blocks.size(); i++) {
      List<Integer> map = new ArrayList<>();
      Path file = dir.resolve(className(i) + ".java");
      Files.writeString(file, source(blocks.get(i), i, map), StandardCharsets.UTF_8);
      lineMaps.add(map);
      files.add(file);
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertNotNull(javac, "a JDK (javac) is needed to compile the documents' examples");
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    boolean ok;
    try (StandardJavaFileManager fm =
        javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8)) {
      ok =
          javac
              .getTask(
                  new StringWriter(),
                  fm,
                  diagnostics,
                  List.of(
                      "-classpath",
                      System.getProperty("java.class.path"),
                      "-d",
                      dir.toString(),
                      "-proc:none",
                      "-nowarn"),
                  null,
                  fm.getJavaFileObjectsFromPaths(files))
              .call();
    }
    Pattern cls = Pattern.compile(className(0).replace("0", "") + "(\\d+)\\.java");
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() != Diagnostic.Kind.ERROR || d.getSource() == null) {
        continue;
      }
      Matcher m = cls.matcher(d.getSource().getName());
      if (!m.find()) {
        failures.add("?: " + d.getMessage(Locale.ROOT));
        continue;
      }
      int i = Integer.parseInt(m.group(1));
      List<Integer> map = lineMaps.get(i);
      int srcLine = (int) d.getLineNumber();
      int docLine =
          srcLine >= 1 && srcLine <= map.size() ? map.get(srcLine - 1) : blocks.get(i).line();
      failures.add(
          blocks.get(i).file()
              + ":"
              + docLine
              + ": does not compile: "
              + d.getMessage(Locale.ROOT));
    }
    if (!ok) {
      assertFalse(failures.isEmpty(), "javac failed without an error diagnostic");
      return failures;
    }
    try (URLClassLoader loader =
        new URLClassLoader(
            new URL[] {dir.toUri().toURL()}, GuideExamplesTest.class.getClassLoader())) {
      for (int i = 0; i < blocks.size(); i++) {
        Block b = blocks.get(i);
        if (b.declaresMembers()) {
          continue;
        }
        try {
          loader.loadClass(className(i)).getMethod("run").invoke(null);
        } catch (InvocationTargetException e) {
          Throwable t = e.getCause();
          String name = className(i);
          StackTraceElement line =
              java.util.Arrays.stream(t.getStackTrace())
                  .filter(s -> s.getClassName().equals(name))
                  .findFirst()
                  .orElse(null);
          int docLine =
              line == null
                      || line.getLineNumber() < 1
                      || line.getLineNumber() > lineMaps.get(i).size()
                  ? b.line()
                  : lineMaps.get(i).get(line.getLineNumber() - 1);
          failures.add(b.file() + ":" + docLine + ": throws " + t);
        }
      }
    }
    return failures;
  }

  @Test
  void everyJavaBlockOfTheReadmeAndTheGuidesCompilesAndRuns(@TempDir Path dir) throws Exception {
    List<Block> blocks = allBlocks();
    assertTrue(blocks.size() >= 30, "compiled blocks: " + blocks.size());
    List<String> failures = compileAndRun(blocks, dir);
    assertTrue(failures.isEmpty(), String.join("\n", failures));
  }

  /** Each guide a user is sent to has at least one compiled example; the README has three. */
  @Test
  void everyGuideHasCompiledExamples() throws IOException {
    for (String guide :
        List.of(
            "choosing.md",
            "keys.md",
            "persistence.md",
            "growing.md",
            "range.md",
            "rocksdb.md",
            "parquet-orc.md",
            "foreign.md",
            "migrating.md")) {
      List<Block> b = blocks(root().resolve("docs").resolve(guide));
      assertFalse(b.isEmpty(), "docs/" + guide + " has no compiled java block");
    }
    assertTrue(blocks(root().resolve("README.md")).size() >= 2, "README's quick start");
  }

  static final String CLI_MARKER = "<!-- run by GuideExamplesTest on a test database -->";

  /**
   * The README's quick start on the command line: each {@code ./sieve} line of the {@code bash}
   * block after {@value #CLI_MARKER} runs in-process on a RocksDB database written by rocksdbjni
   * ({@link TestDatabase}) in place of {@code db/}, and exits 0 with output.
   */
  @Test
  void theReadmesCommandLineQuickStartRuns(@TempDir Path dir) throws Exception {
    List<String> lines = Files.readAllLines(root().resolve("README.md"), StandardCharsets.UTF_8);
    int at = lines.indexOf(CLI_MARKER);
    assertTrue(at >= 0, "README.md has no line " + CLI_MARKER);
    assertEquals("```bash", lines.get(at + 1));
    Path db = dir.resolve("db");
    TestDatabase.create(db, 2000);
    int ran = 0;
    for (int i = at + 2; !lines.get(i).equals("```"); i++) {
      String cmd = lines.get(i).replaceAll("\\s+#.*$", "").strip();
      assertTrue(cmd.startsWith("./sieve "), "README.md:" + (i + 1) + ": " + cmd);
      List<String> args = new ArrayList<>();
      for (String a : cmd.substring("./sieve ".length()).split("\\s+")) {
        args.add(a.equals("db/") ? db.toString() : a);
      }
      CliRun r = CliRun.of(args.toArray(String[]::new));
      assertEquals(0, r.status(), "README.md:" + (i + 1) + ": " + cmd + "\n" + r.out() + r.err());
      assertFalse(r.out().isBlank(), "README.md:" + (i + 1) + ": no output");
      ran++;
    }
    assertTrue(ran >= 2, "inspect and query: " + ran);
  }

  /** Every relative link of the README and the guides names a file that exists. */
  @Test
  void everyRelativeLinkResolves() throws IOException {
    Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    List<String> broken = new ArrayList<>();
    for (Path doc : documents()) {
      List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = link.matcher(lines.get(i));
        while (m.find()) {
          String target = m.group(1);
          if (target.startsWith("http") || target.startsWith("#")) {
            continue;
          }
          String file = target.replaceAll("#.*$", "");
          if (!Files.exists(doc.getParent().resolve(file))) {
            broken.add(root().relativize(doc) + ":" + (i + 1) + ": " + target);
          }
        }
      }
    }
    assertTrue(broken.isEmpty(), String.join("\n", broken));
  }

  /** The rule catches a broken block: a planted typo fails, naming the document and line. */
  @Test
  void aBrokenBlockFailsNamingItsFileAndLine(@TempDir Path dir) throws Exception {
    Path doc = dir.resolve("broken.md");
    Files.writeString(
        doc,
        String.join(
            "\n",
            "# x",
            "```java",
            "import dev.sieve.bloom.BlockedBloomFilter;",
            "var f = BlockedBloomFilter.builder().bitsPerKey(10).build(new long[] {1});",
            "if (!f.mayContain(1L)) throw new AssertionError();",
            "```",
            "",
            "```java",
            "long n = 1",
            "```",
            "",
            "```java",
            "throw new IllegalStateException(\"planted\");",
            "```",
            "",
            "<!-- not compiled: shows a fragment -->",
            "```java",
            "this is not Java",
            "```",
            ""),
        StandardCharsets.UTF_8);
    List<Block> blocks = new ArrayList<>();
    for (Block b : blocks(doc)) {
      blocks.add(new Block("broken.md", b.line(), b.imports(), b.body(), b.at()));
    }
    assertEquals(3, blocks.size());
    Path out = Files.createDirectories(dir.resolve("classes"));
    List<String> failures = compileAndRun(blocks, out);
    assertTrue(
        failures.size() == 1 && failures.get(0).startsWith("broken.md:9: does not compile"),
        failures.toString());
    List<String> runFailures = compileAndRun(List.of(blocks.get(0), blocks.get(2)), out);
    assertEquals(1, runFailures.size(), runFailures.toString());
    assertTrue(runFailures.get(0).startsWith("broken.md:13: throws"), runFailures.toString());
  }
}
