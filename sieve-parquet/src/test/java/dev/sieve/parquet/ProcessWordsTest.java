package dev.sieve.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * No tracked file speaks of how Sieve was made (see {@link ProcessWords}): the repository check
 * lists the tracked files with {@code git ls-files} from the repository root and fails with {@code
 * path:line: text} for every flagged line of every text file; the other tests show on planted
 * strings that each rule flags what it should and passes what it should.
 *
 * <p>It lives in this module because its tests run once in {@code mvn verify} and run from inside
 * the repository; it needs git and the {@code .git} of a checkout, and fails saying so when they
 * are missing rather than passing over nothing.
 */
class ProcessWordsTest {

  // ------------------------------------------------------------ the repository

  @Test
  void noTrackedTextFileHoldsProcessWords() throws Exception {
    Path root = repositoryRoot();
    List<String> tracked = trackedFiles(root);
    assertTrue(
        tracked.contains("pom.xml") && tracked.size() > 100,
        "git ls-files in " + root + " listed " + tracked.size() + " files, without the root pom");
    List<ProcessWords.Hit> hits = new ArrayList<>();
    int read = 0;
    for (String path : tracked) {
      Path file = root.resolve(path);
      if (!Files.isRegularFile(file)) {
        continue; // deleted in the working tree, or a submodule
      }
      String text = isBinaryByName(path) ? null : text(Files.readAllBytes(file));
      if (text == null) {
        hits.addAll(ProcessWords.scan(path, "")); // a binary file's name is still checked
        continue;
      }
      read++;
      hits.addAll(ProcessWords.scan(path, text));
    }
    assertTrue(read > 100, "only " + read + " tracked text files were read");
    if (!hits.isEmpty()) {
      fail(
          "Flagged lines: "
              + hits.size()
              + ". They speak of how Sieve was made (work items, outside documents, development"
              + " machines): give the design reason or drop the history; rules and allowed"
              + " exceptions are in ProcessWords\n"
              + hits.stream().map(ProcessWords.Hit::toString).collect(Collectors.joining("\n")));
    }
  }

  /** The checkout's root: the nearest directory above the working directory that holds .git. */
  static Path repositoryRoot() {
    Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve(".git"))) {
        return dir;
      }
    }
    return fail(
        "no .git in "
            + start
            + " or above it: this test lists the tracked files with git ls-files and needs a git"
            + " checkout of the repository (a source archive cannot be checked)");
  }

  static List<String> trackedFiles(Path root) throws InterruptedException {
    Process git;
    try {
      git =
          new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z")
              .redirectError(ProcessBuilder.Redirect.PIPE)
              .start();
    } catch (IOException e) {
      return fail("git could not be run (is it installed and on PATH?): " + e.getMessage(), e);
    }
    byte[] out;
    byte[] err;
    try (InputStream o = git.getInputStream();
        InputStream e = git.getErrorStream()) {
      out = o.readAllBytes();
      err = e.readAllBytes();
    } catch (IOException e) {
      return fail("reading git ls-files' output failed: " + e.getMessage(), e);
    }
    int rc = git.waitFor();
    if (rc != 0) {
      fail(
          "git ls-files in "
              + root
              + " exited with "
              + rc
              + ": "
              + new String(err, StandardCharsets.UTF_8).strip());
    }
    List<String> paths = new ArrayList<>();
    for (String p : new String(out, StandardCharsets.UTF_8).split("\0")) {
      if (!p.isEmpty()) {
        paths.add(p);
      }
    }
    return paths;
  }

  private static final Set<String> BINARY_EXTENSIONS =
      Set.of(
          "jar", "class", "bin", "sst", "sieve", "parquet", "orc", "gz", "zip", "png", "jpg", "gif",
          "jsa", "ico");

  private static boolean isBinaryByName(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    int dot = name.lastIndexOf('.');
    return dot > 0 && BINARY_EXTENSIONS.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT));
  }

  /** The file as UTF-8 text, or null for a binary file (a NUL byte, or not valid UTF-8). */
  static String text(byte[] bytes) {
    for (byte b : bytes) {
      if (b == 0) {
        return null;
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  // ------------------------------------------------------------ the rules, on planted strings

  private static void assertFlagged(String rule, String text) {
    assertEquals(List.of(rule), ProcessWords.rulesFlagging(text), () -> "for: " + text);
    // the scan's cheap pre-test lets through every line a rule flags
    assertTrue(ProcessWords.mayHold(text), () -> "mayHold misses: " + text);
  }

  private static void assertClean(String text) {
    assertEquals(List.of(), ProcessWords.rulesFlagging(text), () -> "for: " + text);
  }

  @Test
  void issueNumbersAreFlagged() {
    String rule = "work item: issue number";
    assertFlagged(rule, "// see issue 41");
    assertFlagged(rule, " * Issue 15 item 10: the key-count estimate");
    assertFlagged(rule, "(issue 21, item 12): a consumer module");
    assertFlagged(rule, "what issues 20 and 21 asked for");
    assertFlagged(rule, "  void issue11TargetsEachAtTheirN() {");
    assertFlagged(rule, "  void fixIssue12() {");
    assertFlagged(rule, "sieve-bench/scripts/issue20-targets.sh");
  }

  @Test
  void ordinaryIssuesAndOtherProjectsIssueIdsPass() {
    assertClean("// an issue with the footer's length, not the filter's");
    assertClean("// the issue is that 2 threads race");
    assertClean("// parquet-java writes it wrongly (apache/parquet-java#1234)");
    assertClean("// PARQUET-1234 and CASSANDRA-1234 are fixed upstream");
    assertClean("// RocksDB issue 9137: the filter's last byte");
    assertClean("// tissue 3");
  }

  @Test
  void stopNumbersAreFlagged() {
    String rule = "work item: stop number";
    assertFlagged(rule, "// fixed in stop 40");
    assertFlagged(rule, "in about one fork in 4 to 12 (stops 38 and 39)");
    assertFlagged(rule, "Stop 39. Fixed: the batch path");
  }

  @Test
  void stopAsAVerbPasses() {
    assertClean("-XX:TieredStopAtLevel=1");
    assertClean("// the writers stop at 10^6 keys");
    assertClean("// stop 2 threads, then stop 10 s later");
  }

  @Test
  void targetIdsAreFlagged() {
    String rule = "work item: target id";
    assertFlagged(rule, "meets target 2a at 10^7 keys");
    assertFlagged(rule, "(targets G1 to G5)");
  }

  @Test
  void targetAsAnOrdinaryWordPasses() {
    assertClean("the target FPR of 1%");
    assertClean("a target 1e-3 rate");
    assertClean("the target 10x smaller");
  }

  @Test
  void outsideDocumentsAreFlagged() {
    String rule = "document outside the repository";
    assertFlagged(rule, "slower on heap queries (api-and-house.md, 2)");
    assertFlagged(rule, "see ../shared/rocksdb-filters.md");
    assertFlagged(rule, "as anatomy.md says");
    assertFlagged(rule, "the seed chapter's 1.32x");
  }

  @Test
  void theRepositorysOwnDocumentsPass() {
    assertClean("see docs/format.md and README.md");
    assertClean("a shared/ folder of the build");
  }

  @Test
  void developmentMachinesAreFlagged() {
    String rule = "machine words";
    assertFlagged(rule, "on the 2-core machine a fresh JVM");
    assertFlagged(rule, "3 to 5 minutes on the 2-core development machine");
    assertFlagged(rule, "run on a shared machine, rough");
    assertFlagged(rule, "AMD EPYC, 2 vCPUs shared with other work");
    assertFlagged(rule, "beside other helpers' JMH runs");
  }

  @Test
  void graphCoresAndMachineWordsPass() {
    assertClean("a 2-core in the random hypergraph (the peeling fails)");
    assertClean("in the machine's byte order");
  }

  // ------------------------------------------------------------ the scan

  @Test
  void aScanReportsPathLineAndText() {
    List<ProcessWords.Hit> hits =
        ProcessWords.scan("sieve-core/src/main/java/A.java", "class A {\n  // see issue 41\n}\n");
    assertEquals(1, hits.size(), hits::toString);
    assertTrue(
        hits.get(0).toString().startsWith("sieve-core/src/main/java/A.java:2: // see issue 41"),
        hits.get(0)::toString);
  }

  @Test
  void aWordSplitOverTwoCommentLinesIsFlaggedOnTheFirst() {
    List<ProcessWords.Hit> hits =
        ProcessWords.scan("A.java", "/**\n * verified on this 2-core\n * machine (rough)\n */\n");
    assertEquals(1, hits.size(), hits::toString);
    assertEquals(2, hits.get(0).line());
    assertEquals("machine words", hits.get(0).rule());
    hits = ProcessWords.scan("a.sh", "# as of issue\n# 20 and later\n");
    assertEquals(1, hits.size(), hits::toString);
  }

  @Test
  void aFileNameIsChecked() {
    List<ProcessWords.Hit> hits = ProcessWords.scan("scripts/stop39-check.sh", "echo ok\n");
    assertEquals(1, hits.size(), hits::toString);
    assertEquals(0, hits.get(0).line());
  }

  @Test
  void theAllowListCoversOnlyItsOwnHits() {
    // another project's issue is allowed, a work item beside it on the same line is not
    assertEquals(
        List.of("work item: stop number"),
        ProcessWords.rulesFlagging("// RocksDB issue 9137, fixed in stop 40"));
    // the planted words are allowed in this file only
    assertEquals(
        List.of(),
        ProcessWords.rulesFlagging(
            "sieve-parquet/src/test/java/dev/sieve/parquet/ProcessWordsTest.java", "issue 41"));
    assertEquals(
        List.of("work item: issue number"),
        ProcessWords.rulesFlagging(
            "sieve-parquet/src/test/java/dev/sieve/parquet/X.java", "issue 41"));
  }

  @Test
  void binaryFilesAreToldFromText() {
    assertEquals(null, text(new byte[] {'a', 0, 'b'}));
    assertEquals(null, text(new byte[] {(byte) 0xC3, (byte) 0x28}));
    assertEquals("déjà", text("déjà".getBytes(StandardCharsets.UTF_8)));
    assertTrue(isBinaryByName("sieve-core/src/api/baseline.jar"));
    assertTrue(isBinaryByName("golden/filter.SST"));
    assertTrue(!isBinaryByName("sieve"));
  }
}
