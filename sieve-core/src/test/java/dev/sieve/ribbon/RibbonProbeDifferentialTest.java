package dev.sieve.ribbon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The straight-line heap probe ({@link RibbonProbe#heap}) answers exactly as the probe it replaced
 * ({@link RibbonProbeOracle#heap}, kept as the oracle) for arbitrary keys, shapes, column counts,
 * Standard and Bumped Ribbon: no false negative on any path, before and after C2 compilation. The
 * jqwik properties compare them in this JVM; the two fresh-JVM tests run {@link
 * RibbonProbeDifferentialMain} so that the first comparisons are the JVM's first calls of the probe
 * (interpreted) and the last ones follow more than 10^5 calls, once with the default compilers (the
 * compilation log must show the comparing methods compiled by C2, tier 4, with the probe inlined or
 * compiled itself) and once with C1 only.
 */
class RibbonProbeDifferentialTest {

  @Property(tries = 200)
  void randomShapesAnswerAsTheOracle(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int numBlocks) {
    RibbonProbeDifferentialMain.randomShape(new SplittableRandom(seed), numBlocks, 200);
  }

  @Property(tries = 40)
  void standardRibbonAnswersAsTheOracle(
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 4000) int n,
      @ForAll @DoubleRange(min = 1, max = 20) double log2OneIn) {
    SplittableRandom rnd = new SplittableRandom(seed);
    RibbonProbeDifferentialMain.probeStandard(
        RibbonProbeDifferentialMain.standard(rnd, n, log2OneIn), rnd, 2000);
  }

  @Property(tries = 40)
  void bumpedRibbonAnswersAsTheOracle(
      @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 4000) int n,
      @ForAll @DoubleRange(min = 1, max = 16) double resultBits) {
    SplittableRandom rnd = new SplittableRandom(seed);
    RibbonProbeDifferentialMain.probeBumped(
        RibbonProbeDifferentialMain.bumped(rnd, n, resultBits), rnd, 2000);
  }

  @Property(tries = 100)
  void randomBumpedLayersAnswerAsTheOracle(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int numBlocks) {
    RibbonProbeDifferentialMain.randomLayer(new SplittableRandom(seed), numBlocks, 200);
  }

  /**
   * Every start of every shape of one to three blocks and up to ten columns (both sides of the
   * straight-line probe's limit, short blocks first or none), on data of exactly {@link
   * RibbonProbe#paddedWords} words: the straight-line probe reads the columns a block lacks past
   * the last block, so a padding too short for it fails here at the last block's start.
   */
  @Test
  void everyStartOfSmallShapesAnswersAsTheOracle() {
    SplittableRandom rnd = new SplittableRandom(20261207);
    int compared = 0;
    for (int numBlocks = 1; numBlocks <= 3; numBlocks++) {
      for (int numSegments = 1; numSegments <= 10 * numBlocks; numSegments++) {
        int upper = (numSegments + numBlocks - 1) / numBlocks;
        int upperStartBlock = upper * numBlocks - numSegments;
        long[] data = new long[RibbonProbe.paddedWords(numSegments, upper)];
        for (int i = 0; i < 2 * numSegments; i++) {
          data[i] = rnd.nextLong();
        }
        for (int start = 0; start < numBlocks * 128 - 127; start++) {
          for (int k = 0; k < 4; k++) {
            RibbonProbeDifferentialMain.compareRaw(
                data, upper, upperStartBlock, start, rnd.nextLong());
            compared++;
          }
        }
      }
    }
    assertTrue(compared > 10_000, "compared " + compared);
  }

  @Test
  void coldAndAfterC2InAFreshJvm() throws Exception {
    String out = child("-XX:+PrintCompilation");
    assertTrue(out.contains("cold "), out);
    assertTrue(out.contains("warm "), out);
    // C2 (tier 4, OSR or whole) compiled the methods that call the new probe before the run ended
    // (compareRaw is small and inlined into randomShape's loop, so either counts)
    for (String m : new String[] {"(compareRaw|randomShape)", "probeStandard", "probeBumped"}) {
      Pattern c2 =
          Pattern.compile(
              "(?m)^.*\\s4\\s+dev\\.sieve\\.ribbon\\.RibbonProbeDifferentialMain::" + m + "\\s");
      assertTrue(c2.matcher(out).find(), m + " not compiled by C2:\n" + tail(out));
    }
  }

  @Test
  void coldAndAfterC1InAFreshJvm() throws Exception {
    String out = child("-XX:TieredStopAtLevel=1");
    assertTrue(out.contains("warm "), out);
  }

  private static String child(String option) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:+UseSerialGC");
    // compile in the foreground: a method that crosses C2's threshold is compiled before the run
    // goes on, so the run's end cannot outpace a queued C2 compile (JDK 25 on a loaded machine
    // ended with randomShape still at tier 3)
    command.add("-Xbatch");
    command.add(option);
    command.add("-cp");
    command.add(
        classPathOf(RibbonProbeDifferentialMain.class)
            + File.pathSeparator
            + classPathOf(RibbonProbe.class));
    command.add(RibbonProbeDifferentialMain.class.getName());
    command.add("20261206");
    command.add("10000000");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child JVM ends");
    assertEquals(0, p.exitValue(), tail(out));
    return out;
  }

  private static String tail(String out) {
    return out.length() <= 4000 ? out : out.substring(out.length() - 4000);
  }

  private static String classPathOf(Class<?> c) throws Exception {
    return Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
