package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    for (CompareCommand.Kind kind : CompareCommand.kinds()) {
      long rows = r[1].lines().filter(l -> l.startsWith(kind.name() + " ")).count();
      assertEquals(2, rows, kind.name() + " rows in:\n" + r[1]);
    }
    assertTrue(r[1].contains("20000 keys, 50000 absent queries"));
  }

  @Test
  void badUsageExitsWithTwo() {
    assertEquals("2", run("compare", "--keys", "0")[0]);
    assertEquals("2", run("compare", "--no-such-flag")[0]);
  }
}
