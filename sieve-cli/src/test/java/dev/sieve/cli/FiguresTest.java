package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rates and bits per key read one way in every command. */
class FiguresTest {
  @Test
  void ratesArePercentagesWithThreeSignificantDigits() {
    assertEquals("0.951%", Figures.percent(0.009514941871654033));
    assertEquals("1.00%", Figures.percent(0.01));
    assertEquals("50.0%", Figures.percent(0.5));
    assertEquals("100%", Figures.percent(1.0));
    assertEquals("10.0%", Figures.percent(0.09996));
    assertEquals("0.00000123%", Figures.percent(1.234e-8));
    assertEquals("0%", Figures.percent(0));
    assertEquals("-", Figures.percent(Double.NaN));
    assertEquals("-", Figures.percent(Double.POSITIVE_INFINITY));
  }

  @Test
  void bitsPerKeyHaveTwoDecimals() {
    assertEquals("10.00", Figures.bitsPerKey(10));
    assertEquals("9.57", Figures.bitsPerKey(9.5703));
    assertEquals("-", Figures.bitsPerKey(Double.NaN));
  }

  private static final Pattern PERCENT = Pattern.compile("(\\d+(?:\\.\\d+)?)%");

  /** Every percentage in {@code text} has three significant digits (or is 0% or 100%). */
  private static void percentagesHaveThreeDigits(String text) {
    Matcher m = PERCENT.matcher(text);
    int found = 0;
    while (m.find()) {
      String digits = m.group(1).replace(".", "").replaceFirst("^0+", "");
      if (!digits.isEmpty()) {
        assertEquals(3, digits.length(), m.group() + " in:\n" + text);
      }
      found++;
    }
    assertTrue(found > 0, "no percentage in:\n" + text);
  }

  @Test
  void buildInspectAndCompareAgree(@TempDir Path dir) throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      lines.add("k" + i);
    }
    Path keys = dir.resolve("k.keys");
    Files.write(keys, lines);
    Path out = dir.resolve("f.sieve");
    CliRun build = CliRun.of("build", "--keys", keys.toString(), "-o", out.toString());
    assertEquals(0, build.status(), build.err());
    percentagesHaveThreeDigits(build.out());
    assertTrue(build.out().matches("(?s).* \\d+\\.\\d\\d bits/key.*"), build.out());
    CliRun inspect = CliRun.of("inspect", out.toString());
    assertEquals(0, inspect.status(), inspect.err());
    String fpr =
        inspect.out().lines().filter(l -> l.startsWith("modelled fpr:")).findFirst().orElseThrow();
    percentagesHaveThreeDigits(fpr);
    String bpk =
        inspect.out().lines().filter(l -> l.startsWith("bits per key:")).findFirst().orElseThrow();
    assertTrue(bpk.matches("bits per key: +\\d+\\.\\d\\d"), bpk);
    // the same figure both ways
    Matcher m = PERCENT.matcher(build.out());
    assertTrue(m.find());
    assertTrue(fpr.endsWith(" " + m.group()), fpr + " vs " + build.out());
    CliRun json = CliRun.of("inspect", "--json", out.toString());
    assertFalse(json.out().contains("%"), "JSON keeps the full double: " + json.out());
    CliRun compare =
        CliRun.of(
            "compare",
            "--keys",
            "2000",
            "--queries",
            "2000",
            "--bits-per-key",
            "10",
            "--filters",
            "blocked-bloom");
    assertEquals(0, compare.status(), compare.err());
    String row =
        compare.out().lines().filter(l -> l.startsWith("blocked-bloom ")).findFirst().orElseThrow();
    percentagesHaveThreeDigits(row.replaceFirst("^\\S+\\s+\\S+\\s+", ""));
  }
}
