package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * No warm-up cliff on the SIMD path (issue 20): in a fresh JVM with {@code --add-modules
 * jdk.incubator.vector}, the first 1,000 lookups of a 10^6-key blocked (and split-block) Bloom
 * filter cost at most 5× those of a fresh JVM without the module. Before the gate, the SIMD path
 * ran the interpreted vector code from the first lookup: 190× on a quiet machine.
 *
 * <p>Each side is the best of three fresh JVMs ({@link ColdLookupMain}), interleaved, so a busy
 * machine's noise (which only ever adds time) does not decide the ratio.
 */
class ColdStartCliffTest {

  private static final int RUNS = 3;

  @Test
  void blockedBloomFirstThousandLookupsCostAtMostFiveTimesTheScalarPath() throws Exception {
    assertNoCliff("blocked");
  }

  @Test
  void splitBlockBloomFirstThousandLookupsCostAtMostFiveTimesTheScalarPath() throws Exception {
    assertNoCliff("split-block");
  }

  @Test
  void whereTheVectorCodeNeverGetsFastTheGateStaysShutAndTheAnswersStayRight() throws Exception {
    Assumptions.assumeTrue(
        ModuleFinder.ofSystem().find("jdk.incubator.vector").isPresent(),
        "this JDK has no jdk.incubator.vector");
    // C1 only: the vector code stays at about 5 µs a call, so the warm-up gives up (GAVE_UP)
    String c1 =
        child("split-block", "10000", "-XX:TieredStopAtLevel=1", "-Dsieve.test.awaitGate=settled");
    assertTrue(c1.contains("gate " + VectorGate.GAVE_UP + " "), c1);
    // interpreter only: no warm-up thread at all
    String xint = child("blocked", "2000", "-Xint", "-Dsieve.test.awaitGate=settled");
    assertTrue(xint.contains("gate " + VectorGate.GAVE_UP + " 0 "), xint);
  }

  private static String child(String kind, String n, String... options) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    command.add("--add-modules");
    command.add("jdk.incubator.vector");
    command.addAll(List.of(options));
    command.add("-cp");
    command.add(
        classPathOf(ColdLookupMain.class) + File.pathSeparator + classPathOf(VectorGate.class));
    command.add(ColdLookupMain.class.getName());
    command.add(kind);
    command.add(n);
    command.add("1000");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child JVM ends");
    assertEquals(0, p.exitValue(), out);
    return out;
  }

  private static void assertNoCliff(String kind) throws Exception {
    Assumptions.assumeTrue(
        ModuleFinder.ofSystem().find("jdk.incubator.vector").isPresent(),
        "this JDK has no jdk.incubator.vector");
    long scalar = Long.MAX_VALUE;
    long simd = Long.MAX_VALUE;
    List<String> seen = new ArrayList<>();
    for (int run = 0; run < RUNS; run++) {
      long s = firstThousandNanos(kind, false);
      long v = firstThousandNanos(kind, true);
      seen.add(s + "/" + v);
      scalar = Math.min(scalar, s);
      simd = Math.min(simd, v);
    }
    assertTrue(
        simd <= 5 * scalar,
        kind
            + ": first 1,000 lookups on the SIMD path "
            + simd
            + " ns against "
            + scalar
            + " ns scalar (best of "
            + RUNS
            + "; scalar/SIMD per run: "
            + seen
            + ")");
  }

  /** The nanoseconds of the first 1,000 lookups in a fresh JVM, with or without the module. */
  static long firstThousandNanos(String kind, boolean vectorModule) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.add("-XX:+UseSerialGC");
    if (vectorModule) {
      command.add("--add-modules");
      command.add("jdk.incubator.vector");
    }
    String extra = System.getProperty("sieve.test.coldStartChildOption");
    if (extra != null && vectorModule) {
      command.add(extra); // e.g. -Dsieve.vector.warmup=false, to see the test fail without the gate
    }
    command.add("-cp");
    command.add(
        classPathOf(ColdLookupMain.class) + File.pathSeparator + classPathOf(VectorGate.class));
    command.add(ColdLookupMain.class.getName());
    command.add(kind);
    command.add("1000000");
    command.add("1000");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child JVM ends");
    assertEquals(0, p.exitValue(), out);
    for (String line : out.split("\n")) {
      if (line.startsWith("lookups 1000 ")) {
        return Long.parseLong(line.substring("lookups 1000 ".length()).trim());
      }
    }
    throw new AssertionError("no timing in the child's output: " + out);
  }

  static String classPathOf(Class<?> c) throws Exception {
    Path p = Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    return p.toString();
  }
}
