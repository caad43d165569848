package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.format.FilterType;
import org.junit.jupiter.api.Test;

class CompareCommandTest {

  private static String[] run(String... args) {
    CliRun r = CliRun.of(args);
    return new String[] {Integer.toString(r.status()), r.out(), r.err()};
  }

  @Test
  void comparesEveryFilterAtEverySetting() {
    String[] r = run("compare", "--keys", "20000", "--queries", "50000", "--bits-per-key", "8,12");
    assertEquals("0", r[0], r[2]);
    for (FilterType kind : CompareCommand.types(null)) {
      long rows = r[1].lines().filter(l -> l.startsWith(kind.cliName() + " ")).count();
      assertEquals(2, rows, kind.cliName() + " rows in:\n" + r[1]);
    }
    assertTrue(r[1].contains("20000 keys, 50000 absent queries"));
  }

  @Test
  void comparesEveryRegisteredTypeByName() {
    String[] r =
        run(
            "compare",
            "--keys",
            "5000",
            "--queries",
            "5000",
            "--bits-per-key",
            "8,12",
            "--filters",
            "all");
    assertEquals("0", r[0], r[2]);
    for (FilterType type : FilterType.values()) {
      long rows = r[1].lines().filter(l -> l.startsWith(type.cliName() + " ")).count();
      long expected = type.hasSizeSetting() ? 2 : 1;
      assertEquals(expected, rows, type.cliName() + " rows in:\n" + r[1]);
    }
  }

  @Test
  void anUnknownFilterNameIsBadUsageNamingTheKnownOnes() {
    String[] r = run("compare", "--keys", "100", "--filters", "bloomier");
    assertEquals("2", r[0]);
    assertTrue(r[2].contains("unknown filter type 'bloomier'") && r[2].contains("xor8"), r[2]);
  }

  @Test
  void badUsageExitsWithTwo() {
    assertEquals("2", run("compare", "--keys", "0")[0]);
    assertEquals("2", run("compare", "--no-such-flag")[0]);
  }
}
