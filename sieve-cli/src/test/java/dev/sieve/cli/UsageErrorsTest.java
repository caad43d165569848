package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each usage error exits 2 with one line on stderr and nothing else. */
class UsageErrorsTest {
  @TempDir Path dir;

  private static void assertUsageError(CliRun r, String mustSay) {
    assertEquals(2, r.status(), r.out() + r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertEquals("", r.out(), "nothing on stdout");
    assertTrue(r.err().contains(mustSay), r.err());
    assertFalse(r.err().startsWith("sieve sieve"), r.err());
  }

  /** Exited 0 after printing the usage. */
  @Test
  void noCommand() {
    CliRun r = CliRun.of();
    assertUsageError(r, "no command given");
    assertTrue(r.err().contains("build") && r.err().contains("report"), r.err());
  }

  /** Exited 1 after printing the table header. */
  @Test
  void compareWithBitsPerKeyOutOfRange() {
    assertUsageError(CliRun.of("compare", "--bits-per-key=0"), "bits per key");
    assertUsageError(CliRun.of("compare", "--bits-per-key=8,NaN"), "bits per key");
    assertUsageError(CliRun.of("compare", "--bits-per-key=1e9"), "bits per key");
  }

  private Path keys() throws IOException {
    Path k = dir.resolve("k.keys");
    Files.write(k, List.of("a", "b", "c"));
    return k;
  }

  /** Accepted silently. */
  @Test
  void buildLevelBelowMinusOne() throws IOException {
    String k = keys().toString();
    String o = dir.resolve("o").toString();
    assertUsageError(
        CliRun.of("build", "--keys", k, "--policy", "ribbon:10", "-o", o, "--level=-7"),
        "--level must be -1");
    // Integer.MAX_VALUE is no level RocksDB assigns (MAX_VALUE - 1 is "unknown")
    assertUsageError(
        CliRun.of("build", "--keys", k, "--policy", "ribbon:10", "-o", o, "--level=2147483647"),
        "--level must be -1");
    assertEquals(
        0,
        CliRun.of("build", "--keys", k, "--policy", "ribbon:10", "-o", o, "--level=2147483646")
            .status());
    assertEquals(
        0,
        CliRun.of("build", "--keys", k, "--policy", "ribbon:10", "-o", o, "--level=-1").status());
    assertEquals(
        0, CliRun.of("build", "--keys", k, "--policy", "ribbon:10", "-o", o, "--level=3").status());
  }

  /** Silently clamped to 100 and echoed as given. */
  @Test
  void buildSaysWhichPolicyItApplied() throws IOException {
    String k = keys().toString();
    Path clamped = dir.resolve("clamped");
    Path hundred = dir.resolve("hundred");
    for (String given : new String[] {"bloom:1e9", "bloom:1000"}) {
      CliRun r = CliRun.of("build", "--keys", k, "--policy", given, "-o", clamped.toString());
      assertEquals(0, r.status(), r.err());
      assertTrue(r.out().contains("bloom:100.0,"), r.out());
      assertFalse(r.out().contains(given), r.out());
      assertEquals(1, r.err().strip().lines().count(), r.err());
      assertTrue(r.err().contains("applied as bloom:100.0") && r.err().contains("clamps"), r.err());
      CliRun h = CliRun.of("build", "--keys", k, "--policy", "bloom:100", "-o", hundred.toString());
      assertEquals("", h.err(), "no note when nothing is clamped");
      assertArrayEquals(Files.readAllBytes(hundred), Files.readAllBytes(clamped));
    }
    CliRun low =
        CliRun.of("build", "--keys", k, "--policy", "ribbon:0.7:2", "-o", clamped.toString());
    assertEquals(0, low.status(), low.err());
    assertTrue(low.out().contains("ribbon:1.0:2"), low.out());
    CliRun none =
        CliRun.of("build", "--keys", k, "--policy", "bloom:0.3", "-o", clamped.toString());
    assertEquals(2, none.status(), none.err());
    assertTrue(
        none.err().contains("bits per key below 0.5 means no filter; nothing to build"),
        none.err());
  }

  /** "Unknown subcommand", and the report's own -V printed nothing (tested in sieve-report). */
  @Test
  void helpReportAndReportInThisJar() {
    CliRun help = CliRun.of("help", "report");
    assertEquals(0, help.status(), help.err());
    assertTrue(help.out().contains("./sieve report"), help.out());
    assertUsageError(CliRun.of("report", "--n", "1000"), "./sieve report");
    assertTrue(CliRun.of("--help").out().contains("report"));
  }

  /** Printed "sieve sieve: ...". */
  @Test
  void topLevelErrorsSaySieveOnce() {
    CliRun r = CliRun.of("--no-such-flag");
    assertUsageError(r, "sieve: ");
    CliRun sub = CliRun.of("inspect", "--no-such-flag", "x");
    assertUsageError(sub, "sieve inspect: ");
  }
}
