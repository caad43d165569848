package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.registry.FilterType;
import java.util.List;
import java.util.stream.Collectors;
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
    for (FilterType type : FilterType.builtIn()) {
      long rows = r[1].lines().filter(l -> l.startsWith(type.cliName() + " ")).count();
      long expected = SizeSettings.has(type) ? 2 : 1;
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

  /**
   * The {@code set} column shows "-" (not NaN) for the types without a size setting, and the
   * 17-character name split-block-bloom keeps its rows' columns under the header.
   */
  @Test
  void theTableHasNoNaNAndEveryRowLinesUpWithTheHeader() {
    String[] r =
        run(
            "compare",
            "--keys",
            "3000",
            "--queries",
            "3000",
            "--bits-per-key",
            "8",
            "--filters",
            "all");
    assertEquals("0", r[0], r[2]);
    List<String> table =
        r[1].lines().filter(l -> !l.contains("absent queries")).collect(Collectors.toList());
    String header = table.get(0);
    assertTrue(header.startsWith("filter "), header);
    assertEquals(FilterType.builtIn().size() + 1, table.size(), r[1]);
    for (String row : table.subList(1, table.size())) {
      assertFalse(row.contains("NaN"), row);
      assertEquals(9, row.trim().split(" +").length, row);
      assertEquals(
          header.length(), row.length(), "aligned with the header:\n" + header + "\n" + row);
    }
    for (FilterType t : FilterType.builtIn()) {
      String row =
          table.stream().filter(l -> l.startsWith(t.cliName() + " ")).findFirst().orElseThrow();
      String set = row.trim().split(" +")[1];
      assertEquals(SizeSettings.has(t) ? "8.00" : "-", set, row);
    }
  }
}
