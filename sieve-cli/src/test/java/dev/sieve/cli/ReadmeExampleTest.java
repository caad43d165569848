package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.registry.FilterType;
import dev.sieve.xor.Xor16Filter;
import dev.sieve.xor.Xor8Filter;
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
 * The README's quick start is real code (tested here, in a module without a module-info, so javac
 * is at hand): each {@code java} block after the marker {@value #MARKER} is compiled against this
 * build (its import lines as imports, the rest as a method body) and run. {@link GuideExamplesTest}
 * compiles every other block of the README and the guides. The claims of the README and the guides
 * that a test can check are checked here too: the registry's names, the Cuckoo {@code remove}
 * caveat with its figures, {@code fpRate} on the fixed-width Xor filters.
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

  /** Every marked block, in order: for each, its import lines, then its statements. */
  static List<List<List<String>>> examples(Path readme) throws IOException {
    List<String> lines = Files.readAllLines(readme, StandardCharsets.UTF_8);
    List<List<List<String>>> all = new ArrayList<>();
    for (int at = lines.indexOf(MARKER); at >= 0; ) {
      if (!lines.get(at + 1).equals("```java")) {
        throw new AssertionError("the line after the marker must open a ```java block: " + at);
      }
      List<String> imports = new ArrayList<>();
      List<String> body = new ArrayList<>();
      int i = at + 2;
      for (; !lines.get(i).equals("```"); i++) {
        String l = lines.get(i);
        (l.startsWith("import ") ? imports : body).add(l);
      }
      all.add(List.of(imports, body));
      int next = lines.subList(i, lines.size()).indexOf(MARKER);
      at = next < 0 ? -1 : i + next;
    }
    return all;
  }

  @Test
  void readmeExampleCompilesAndRuns(@TempDir Path dir) throws Exception {
    List<List<String>> ex = example(Path.of("..", "README.md"));
    compileAndRun(dir, ex.get(0), ex.get(1), "ReadmeExample");
  }

  @Test
  void everyMarkedReadmeExampleCompilesAndRuns(@TempDir Path dir) throws Exception {
    List<List<List<String>>> all = examples(Path.of("..", "README.md"));
    assertTrue(all.size() >= 2, "the quick start's string and long examples: " + all.size());
    boolean mapped = false;
    for (int i = 0; i < all.size(); i++) {
      compileAndRun(dir, all.get(i).get(0), all.get(i).get(1), "ReadmeExample" + i);
      mapped |= String.join("\n", all.get(i).get(1)).contains("SieveFormat.map(");
    }
    assertTrue(mapped, "a quick-start example maps a saved filter");
  }

  private static String readme() throws IOException {
    return Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
  }

  private static String guide(String name) throws IOException {
    return Files.readString(Path.of("..", "docs", name), StandardCharsets.UTF_8);
  }

  /** docs/keys.md's list of registry names is every name of {@link FilterType}, in its order. */
  @Test
  void keysGuideListsEveryRegistryName() throws IOException {
    String text = guide("keys.md").replaceAll("\\s+", " ");
    String intro = "`dev.sieve.registry.FilterType` names every type Sieve builds (";
    int at = text.indexOf(intro);
    assertTrue(at >= 0, "README: " + intro);
    String list = text.substring(at + intro.length(), text.indexOf(';', at));
    List<String> listed = new ArrayList<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("`([a-z0-9-]+)`").matcher(list);
    while (m.find()) {
      listed.add(m.group(1));
    }
    List<String> registry = new ArrayList<>();
    for (FilterType t : FilterType.builtIn()) {
      registry.add(t.cliName());
    }
    assertEquals(registry, listed);
  }

  /**
   * The contract's Cuckoo caveat is stated where the contract is and in the Cuckoo row, names the
   * method that exists ({@code remove}, not {@code delete}), and its figures are what this build
   * measures: 10^6 keys (seed 21, default 12-bit fingerprints), 100,000 removes of keys never
   * added.
   */
  @Test
  void cuckooRemoveCaveatIsStatedAndItsFiguresHold() throws Exception {
    String text = readme();
    String contract =
        text.substring(text.indexOf("## The contract"), text.indexOf("## Getting it"));
    assertTrue(contract.contains("`CuckooFilter.remove`"), contract);
    String row = text.lines().filter(l -> l.startsWith("| Cuckoo |")).findFirst().orElseThrow();
    assertTrue(row.contains("`remove`"), row);
    assertFalse(row.toLowerCase(java.util.Locale.ROOT).contains("delete"), row);
    CuckooFilter.class.getMethod("remove", long.class); // the method the README names
    assertFalse(
        java.util.Arrays.stream(CuckooFilter.class.getMethods())
            .anyMatch(x -> x.getName().equals("delete")),
        "no delete method");

    java.util.SplittableRandom r = new java.util.SplittableRandom(21);
    long[] keys = new long[1_000_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = r.nextLong();
    }
    CuckooFilter f = CuckooFilter.builder().build(keys);
    assertEquals(12, f.fingerprintBits());
    java.util.Set<Long> added = new java.util.HashSet<>();
    for (long k : keys) {
      added.add(k);
    }
    int wrongRemoves = 0;
    for (int i = 0; i < 100_000; ) {
      long k = r.nextLong();
      if (!added.contains(k)) {
        i++;
        wrongRemoves += f.remove(k) ? 1 : 0;
      }
    }
    int lost = 0;
    for (long k : keys) {
      lost += f.mayContain(k) ? 0 : 1;
    }
    double model = 8 * f.load() / 4096 * 100_000;
    assertTrue(wrongRemoves > model / 2 && wrongRemoves < model * 2, wrongRemoves + " vs " + model);
    // each remove that took a fingerprint cleared the one copy of at least one added key (a build
    // stores keys sharing their buckets and fingerprint once)
    assertTrue(lost > 0 && lost >= wrongRemoves, lost + " lost, " + wrongRemoves + " removes");
    String figures =
        wrongRemoves
            + " of 100,000 such removes each took an added key's fingerprint, and "
            + lost
            + " added keys";
    assertTrue(contract.replaceAll("\\s+", " ").contains(figures), "README's figures: " + figures);
  }

  /** {@code fpRate} keeps Xor's fixed width: docs/keys.md's figures for Xor16 and Xor8 at 1%. */
  @Test
  void fpRateKeepsTheXorFiltersFixedWidth() throws IOException {
    long[] keys = java.util.stream.LongStream.range(0, 1_000_000).toArray();
    Filter x16 = Xor16Filter.builder().fpRate(0.01).build(keys);
    Filter x8 = Xor8Filter.builder().fpRate(0.01).build(keys);
    String text = guide("keys.md").replaceAll("\\s+", " ");
    String claim =
        String.format(
            java.util.Locale.ROOT,
            "`Xor16Filter.builder().fpRate(0.01)` still takes %.1f bits/key, for %.4f%% (2^-16),"
                + " where `Xor8Filter` meets 1%% in %.1f bits/key at %.2f%%",
            x16.bitsPerKey(),
            100 * x16.modelledFpRate(),
            x8.bitsPerKey(),
            100 * x8.modelledFpRate());
    assertTrue(text.contains(claim), "docs/keys.md: " + claim);
    assertEquals(Math.pow(2, -16), x16.modelledFpRate(), 1e-12);
  }

  private static void compileAndRun(
      Path dir, List<String> imports, List<String> body, String className) throws Exception {
    assertTrue(!body.isEmpty() && body.size() <= 8, "a short example: " + body.size() + " lines");
    StringBuilder src = new StringBuilder();
    imports.forEach(l -> src.append(l).append('\n'));
    src.append("public class ")
        .append(className)
        .append(" {\n  public static void run() throws Exception {\n");
    body.forEach(l -> src.append("    ").append(l).append('\n'));
    src.append("  }\n}\n");
    Path file = dir.resolve(className + ".java");
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
        new URLClassLoader(
            new URL[] {dir.toUri().toURL()}, ReadmeExampleTest.class.getClassLoader())) {
      Method run = loader.loadClass(className).getMethod("run");
      run.invoke(null);
    }
  }
}
