package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./sieve} wrapper, run for real (bash, flock, offline Maven, java) on a fresh copy of
 * the repository's sources. Of four concurrent first runs, one builds under the lock, the others
 * wait and re-check, and all four run the CLI. The copy's Maven repository is the local one without
 * rocksdbjni, JUnit, jqwik and Jazzer, which proves that building the CLI does not resolve
 * test-only dependencies. About 15-40 s (one real build and two failing builds); skipped where
 * bash, flock or mvn is missing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WrapperScriptTest {
  @TempDir static Path tmp;
  static Path clone;
  static Path repo;

  private static boolean onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }

  @BeforeAll
  static void copySources() throws Exception {
    assumeTrue(
        !"false".equals(System.getProperty("sieve.wrapperTest")), "-Dsieve.wrapperTest=false");
    assumeTrue(onPath("bash") && onPath("flock") && onPath("mvn"), "needs bash, flock, mvn");
    Path root = Path.of("").toAbsolutePath().getParent();
    assumeTrue(Files.isRegularFile(root.resolve("sieve")), "repository root not found");
    Path m2 =
        Path.of(
            System.getProperty(
                "maven.repo.local", System.getProperty("user.home") + "/.m2/repository"));
    assumeTrue(Files.isDirectory(m2), "no local Maven repository");
    clone = tmp.resolve("clone");
    Files.createDirectories(clone);
    copy(root.resolve("pom.xml"), clone.resolve("pom.xml"));
    copy(root.resolve("sieve"), clone.resolve("sieve"));
    for (String m :
        List.of(
            "sieve-core",
            "sieve-range",
            "sieve-interop",
            "sieve-jcstress", // listed by the parent, never built by the wrapper
            "sieve-rocksdb",
            "sieve-parquet",
            "sieve-orc",
            "sieve-tools",
            "sieve-cli",
            "sieve-bench",
            "sieve-report",
            "sieve-spark")) {
      copy(root.resolve(m).resolve("pom.xml"), clone.resolve(m).resolve("pom.xml"));
      copy(root.resolve(m).resolve("src/main"), clone.resolve(m).resolve("src/main"));
    }
    // the local repository without the test-only dependencies (hard links: cheap)
    repo = tmp.resolve("repo");
    Process cp =
        new ProcessBuilder("cp", "-al", m2.toString(), repo.toString()).inheritIO().start();
    if (cp.waitFor() != 0) {
      cp = new ProcessBuilder("cp", "-as", m2.toString(), repo.toString()).inheritIO().start();
      assumeTrue(cp.waitFor() == 0, "cannot link the local repository");
    }
    for (String testOnly :
        List.of(
            "org/rocksdb",
            "org/junit/jupiter",
            "org/junit/platform",
            "net/jqwik",
            "com/code-intelligence",
            "org/apache/parquet", // sieve-parquet's and sieve-cli's test oracle and file writer
            "org/apache/hadoop")) {
      deleteTree(repo.resolve(testOnly));
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path dest = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.createDirectories(dest.getParent());
          Files.copy(p, dest, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(p)) {
      for (Path f : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.delete(f);
      }
    }
  }

  record Run(int status, String out, String err) {}

  private static Process start(Path script, String... args) throws IOException {
    return start(Map.of(), null, script, args);
  }

  private static Process start(
      Map<String, String> extraEnv, Path stdin, Path script, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
    Map<String, String> env = pb.environment();
    env.put("SIEVE_MVN_ARGS", "-o -Dmaven.repo.local=" + repo);
    env.put("SIEVE_HEAP", "256m");
    env.remove("MAVEN_OPTS");
    env.remove("JAVA_TOOL_OPTIONS");
    env.remove("SIEVE_CDS");
    env.remove("SIEVE_JAVA");
    env.putAll(extraEnv);
    if (stdin != null) {
      pb.redirectInput(stdin.toFile());
    }
    return pb.start();
  }

  /** The class-data-sharing archives the wrapper made. */
  private static List<Path> archives() throws IOException {
    Path dir = clone.resolve("sieve-cli/target/cds");
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".jsa")).sorted().toList();
    }
  }

  /**
   * Runs {@code query} through the wrapper with the JVM's class-loading log on, and returns where
   * the CLI's own query logic (QueryCore, which the picocli-free fast path and QueryCommand both
   * call) came from: "shared objects file (top)" when the wrapper's dynamic archive served it.
   * {@code -Xshare:on} makes the JVM refuse to start rather than run without an archive it cannot
   * map.
   */
  private static String querySourceOfQueryCore(Path filter) throws Exception {
    Path log = tmp.resolve("class-load-" + System.nanoTime() + ".log");
    Run r =
        finish(
            start(
                Map.of("JAVA_TOOL_OPTIONS", "-Xshare:on -Xlog:class+load=info:file=" + log),
                null,
                clone.resolve("sieve"),
                "query",
                filter.toString(),
                "key:1",
                "never-added-key-xyz"));
    assertEquals(0, r.status(), r.toString());
    assertTrue(r.out().startsWith("key:1\tmaybe\n"), r.toString());
    try (Stream<String> lines = Files.lines(log)) {
      return lines
          .filter(l -> l.contains(" dev.sieve.cli.QueryCore source: "))
          .map(l -> l.substring(l.indexOf(" source: ") + 9))
          .findFirst()
          .orElse("(not loaded)");
    }
  }

  private static Run finish(Process p) throws Exception {
    byte[] out = p.getInputStream().readAllBytes();
    byte[] err = p.getErrorStream().readAllBytes();
    assertTrue(p.waitFor(10, TimeUnit.MINUTES), "wrapper hung");
    return new Run(
        p.exitValue(),
        new String(out, StandardCharsets.UTF_8),
        new String(err, StandardCharsets.UTF_8));
  }

  private static void assertNoAnsi(Run r) {
    assertFalse((r.out() + r.err()).contains("\u001b"), "ANSI escape in: " + r);
  }

  private static long buildLines(Run r) {
    return r.err().lines().filter(l -> l.startsWith("sieve: building")).count();
  }

  @Test
  @Order(1)
  void concurrentFirstRunsAllSucceedAndOneBuilds() throws Exception {
    List<Process> procs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      procs.add(start(clone.resolve("sieve"), "--version"));
    }
    long builds = 0;
    for (Process p : procs) {
      Run r = finish(p);
      assertEquals(0, r.status(), r.toString());
      assertEquals("sieve 1.0.0", r.out().strip(), r.toString());
      assertNoAnsi(r);
      assertTrue(r.err().lines().count() <= 1, "at most the building line: " + r.err());
      builds += buildLines(r);
    }
    assertEquals(1, builds, "exactly one process builds");
    assertTrue(Files.isRegularFile(clone.resolve("sieve-cli/target/.sieve-build-stamp")));
    // and right after the build, under the same lock, one class-data-sharing archive
    assertEquals(1, archives().size(), "one archive made on first use: " + archives());
  }

  /**
   * The archive made on first use serves the next run (its classes come from the archive's top
   * layer, and {@code -Xshare:on} maps it); a jar that changed (as a rebuild changes it) gets a new
   * archive, because the JVM refuses the old one; an archive the JVM refuses changes nothing a
   * command prints; and where the training run cannot make an archive, the CLI runs without one,
   * and the wrapper does not try again for that jar and java.
   */
  @Test
  @Order(2)
  void archiveMadeOnFirstUseServesLaterRunsAndFollowsTheJar() throws Exception {
    Path keys = tmp.resolve("cds-keys.txt");
    Files.writeString(keys, "key:1\nkey:2\nkey:3\n");
    Path filter = tmp.resolve("cds.block");
    Run b =
        finish(
            start(
                clone.resolve("sieve"),
                "build",
                "--keys",
                keys.toString(),
                "--policy",
                "bloom:10",
                "-o",
                filter.toString()));
    assertEquals(0, b.status(), b.toString());
    List<Path> first = archives();
    assertEquals(1, first.size(), first.toString());
    assertEquals("shared objects file (top)", querySourceOfQueryCore(filter));

    // the jar changes (a rebuild writes a new one): the JVM refuses the old archive ...
    Path jar = clone.resolve("sieve-cli/target/sieve-cli-all.jar");
    Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 2_000));
    Process refused =
        new ProcessBuilder(
                "java",
                "-Xshare:on",
                "-XX:SharedArchiveFile=" + first.get(0),
                "-jar",
                jar.toString(),
                "--version")
            .redirectErrorStream(true)
            .start();
    refused.getInputStream().readAllBytes();
    assertTrue(refused.waitFor(2, TimeUnit.MINUTES));
    assertTrue(refused.exitValue() != 0, "the JVM takes an archive of another jar");
    // ... so the next run makes one for the new jar (silently), and the run after uses it
    Run retrained = finish(start(clone.resolve("sieve"), "--version"));
    assertEquals(0, retrained.status(), retrained.toString());
    assertEquals("sieve 1.0.0", retrained.out().strip());
    assertEquals("", retrained.err(), "no rebuild, no note");
    assertEquals("shared objects file (top)", querySourceOfQueryCore(filter));
    List<Path> second = new ArrayList<>(archives());
    assertEquals(2, second.size(), second.toString());
    second.removeAll(first);
    assertEquals(1, second.size(), second.toString());

    // an archive the JVM refuses (here the old jar's, under the new jar's name): same output,
    // nothing on stderr (the JVM's CDS warnings go to standard output unless switched off)
    Path current = second.get(0);
    Files.delete(current);
    Files.copy(first.get(0), current);
    Run refusedRun =
        finish(start(clone.resolve("sieve"), "query", filter.toString(), "key:2", "zz-not-a-key"));
    assertEquals(0, refusedRun.status(), refusedRun.toString());
    assertEquals("key:2\tmaybe\nzz-not-a-key\tabsent\n", refusedRun.out());
    assertEquals("", refusedRun.err());

    // a java that cannot make the archive: the CLI runs without one, once marked, not retried
    Path shim = tmp.resolve("java-without-cds");
    Path calls = tmp.resolve("java-without-cds.calls");
    Files.writeString(
        shim,
        "#!/usr/bin/env bash\n"
            + "echo \"$*\" >>'"
            + calls
            + "'\n"
            + "for a in \"$@\"; do [[ $a == -XX:ArchiveClassesAtExit=* ]] && exit 1; done\n"
            + "exec java \"$@\"\n");
    Files.setPosixFilePermissions(
        shim, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    Map<String, String> viaShim = Map.of("SIEVE_JAVA", shim.toString());
    for (int i = 0; i < 2; i++) {
      Run r =
          finish(start(viaShim, null, clone.resolve("sieve"), "query", filter.toString(), "key:3"));
      assertEquals(0, r.status(), r.toString());
      assertEquals("key:3\tmaybe\n", r.out());
      assertEquals("", r.err());
    }
    List<String> shimCalls = Files.readAllLines(calls);
    assertEquals(3, shimCalls.size(), "one failed training run, then two plain runs: " + shimCalls);
    assertTrue(shimCalls.get(0).contains("-XX:ArchiveClassesAtExit="), shimCalls.toString());
    for (String call : shimCalls.subList(1, 3)) {
      assertFalse(call.contains("SharedArchiveFile"), call);
      assertTrue(call.contains("-XX:TieredStopAtLevel=1"), "a short query runs C1 only: " + call);
    }
    try (Stream<Path> s = Files.list(clone.resolve("sieve-cli/target/cds"))) {
      assertEquals(1, s.filter(p -> p.toString().endsWith(".jsa.failed")).count());
    }

    // the long-running commands keep full tiered compilation: build, and query on stdin
    Files.delete(calls);
    Run built =
        finish(
            start(
                viaShim,
                null,
                clone.resolve("sieve"),
                "build",
                "--keys",
                keys.toString(),
                "--policy",
                "ribbon:10",
                "-o",
                tmp.resolve("cds2.block").toString()));
    assertEquals(0, built.status(), built.toString());
    Run onStdin = finish(start(viaShim, keys, clone.resolve("sieve"), "query", filter.toString()));
    assertEquals("key:1\tmaybe\nkey:2\tmaybe\nkey:3\tmaybe\n", onStdin.out(), onStdin.toString());
    for (String call : Files.readAllLines(calls)) {
      assertFalse(call.contains("TieredStopAtLevel"), call);
    }
  }

  @Test
  @Order(3)
  void symlinkedOnPathAndNoRebuildForUnrelatedChanges() throws Exception {
    Path bin = tmp.resolve("bin");
    Files.createDirectories(bin);
    Path link = bin.resolve("sieve");
    Files.deleteIfExists(link);
    Files.createSymbolicLink(link, clone.resolve("sieve"));
    Run r = finish(start(link, "--version"));
    assertEquals(0, r.status(), r.toString());
    assertEquals("sieve 1.0.0", r.out().strip());
    assertEquals("", r.err(), "no rebuild");
    // a change in the benchmark or report modules or in tests does not rebuild the CLI
    FileTime later = FileTime.fromMillis(System.currentTimeMillis() + 5_000);
    Path benchSource = clone.resolve("sieve-bench/src/main/java/dev/sieve/bench/Touched.java");
    Files.writeString(benchSource, "package dev.sieve.bench; class Touched {}\n");
    Files.setLastModifiedTime(benchSource, later);
    Path reportSource = clone.resolve("sieve-report/src/main/java/dev/sieve/report/Touched.java");
    Files.writeString(reportSource, "package dev.sieve.report; class Touched {}\n");
    Files.setLastModifiedTime(reportSource, later);
    Path test = clone.resolve("sieve-core/src/test/java/Touched.java");
    Files.createDirectories(test.getParent());
    Files.writeString(test, "class Touched {}\n");
    Files.setLastModifiedTime(test, later);
    Run again = finish(start(link, "--version"));
    assertEquals(0, again.status(), again.toString());
    assertEquals("", again.err(), "no rebuild for unrelated changes");
  }

  /** A broken module pom fails Maven within seconds: the cheapest real failure. */
  @Test
  @Order(4)
  void aFailedBuildIsOneLineNamingTheLog() throws Exception {
    Path pom = clone.resolve("sieve-cli/pom.xml");
    String good = Files.readString(pom);
    Path stamp = clone.resolve("sieve-cli/target/.sieve-build-stamp");
    FileTime stamped = Files.getLastModifiedTime(stamp);
    try {
      Files.writeString(pom, good.replace("<dependencies>", "<dependencies><oops>"));
      Files.setLastModifiedTime(pom, FileTime.fromMillis(System.currentTimeMillis() + 5_000));
      Run r = finish(start(clone.resolve("sieve"), "--version"));
      assertEquals(1, r.status(), r.toString());
      assertNoAnsi(r);
      List<String> lines = r.err().lines().toList();
      assertEquals(2, lines.size(), r.err()); // "building ...; Maven log: ..." and the failure
      String failure = lines.get(1);
      assertTrue(failure.startsWith("sieve: building sieve-cli failed: [ERROR]"), failure);
      assertTrue(failure.endsWith("sieve-cli/target/sieve-build.log"), failure);
      assertEquals("", r.out());
      assertEquals(stamped, Files.getLastModifiedTime(stamp), "only a successful build stamps");
      assertFalse(Files.exists(clone.resolve("sieve-cli/target/.sieve-build-stamp.next")));
    } finally {
      Files.writeString(pom, good);
    }
  }

  /**
   * A jar Maven built itself after the last source change ({@code mvn install}) is used as it is,
   * with or without the wrapper's stamp; a source newer than the jar still rebuilds. Maven is given
   * an option it does not know, so a rebuild shows as one failed build at once instead of a build.
   */
  @Test
  @Order(5)
  void aJarMavenBuiltAfterTheSourcesCountsAsFresh() throws Exception {
    Path jar = clone.resolve("sieve-cli/target/sieve-cli-all.jar");
    Path stamp = clone.resolve("sieve-cli/target/.sieve-build-stamp");
    Path source = clone.resolve("sieve-cli/src/main/java/dev/sieve/cli/Main.java");
    Map<String, String> env = Map.of("SIEVE_MVN_ARGS", "--no-such-maven-option", "SIEVE_CDS", "0");
    long now = System.currentTimeMillis();
    // an edit after the wrapper's last build, then Maven's build of the jar: the jar is newest
    Files.setLastModifiedTime(source, FileTime.fromMillis(now + 5_000));
    Files.setLastModifiedTime(jar, FileTime.fromMillis(now + 10_000));
    Run r = finish(start(env, null, clone.resolve("sieve"), "--version"));
    assertEquals(0, r.status(), r.toString());
    assertEquals("sieve 1.0.0", r.out().strip(), r.toString());
    assertEquals(0, buildLines(r), "no rebuild of a jar newer than the sources: " + r.err());
    // a checkout where only Maven ever built: no stamp at all
    Files.deleteIfExists(stamp);
    Run noStamp = finish(start(env, null, clone.resolve("sieve"), "--version"));
    assertEquals(0, noStamp.status(), noStamp.toString());
    assertEquals(0, buildLines(noStamp), "no rebuild without a stamp: " + noStamp.err());
    // a source newer than the jar is a change: the wrapper builds (and here fails at once)
    Files.setLastModifiedTime(source, FileTime.fromMillis(now + 15_000));
    Run stale = finish(start(env, null, clone.resolve("sieve"), "--version"));
    assertEquals(1, stale.status(), stale.toString());
    assertTrue(stale.err().startsWith("sieve: building sieve-cli (first use"), stale.err());
    assertTrue(stale.err().contains("sieve: building sieve-cli failed"), stale.err());
  }
}
