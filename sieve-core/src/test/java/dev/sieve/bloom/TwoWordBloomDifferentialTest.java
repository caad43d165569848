package dev.sieve.bloom;

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
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link TwoWordBloomKernel}'s probes against the probes they replaced ({@link
 * TwoWordBloomKernelOracle}), through {@link TwoWordBloomDifferentialMain}: random words of random
 * fills, added and random hashes, every {@code j}, heap and wrapped single probes and the chunk
 * probe over random chunks (which must also agree with the single probe). In this JVM (jqwik), and
 * in a fresh JVM from the first, interpreted, call through 3·10^6 comparisons, whose compilation
 * log must show the comparing methods compiled by C2 (tier 4).
 */
class TwoWordBloomDifferentialTest {

  @Property(tries = 200)
  void randomCasesAnswerAsTheOracle(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 300) int numBlocks) {
    TwoWordBloomDifferentialMain.randomCase(new SplittableRandom(seed), numBlocks, 300, true);
  }

  @Test
  void coldAndAfterC2InAFreshJvm() throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:+UseSerialGC");
    // compile in the foreground, so the run cannot end before a queued C2 compile
    command.add("-Xbatch");
    command.add("-XX:+PrintCompilation");
    command.add("-cp");
    command.add(
        classPathOf(TwoWordBloomDifferentialMain.class)
            + File.pathSeparator
            + classPathOf(TwoWordBloomKernel.class));
    command.add(TwoWordBloomDifferentialMain.class.getName());
    command.add("20261206");
    command.add("3000000");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child JVM ends");
    assertEquals(0, p.exitValue(), tail(out));
    assertTrue(out.contains("cold "), tail(out));
    assertTrue(out.contains("warm "), tail(out));
    // the methods that call the new probes, compiled by C2 (tier 4, OSR or whole) before the end:
    // the single probes' caller and the chunk probe (or the loop it was inlined into)
    for (String m :
        new String[] {
          "TwoWordBloomDifferentialMain::(compareSingle|randomCase)",
          "(TwoWordBloomKernel::probeChunk|TwoWordBloomDifferentialMain::randomCase)"
        }) {
      Pattern c2 = Pattern.compile("(?m)^.*\\s4\\s+dev\\.sieve\\.bloom\\." + m + "\\s");
      assertTrue(c2.matcher(out).find(), m + " not compiled by C2:\n" + tail(out));
    }
  }

  private static String tail(String out) {
    return out.length() <= 4000 ? out : out.substring(out.length() - 4000);
  }

  private static String classPathOf(Class<?> c) throws Exception {
    return Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
