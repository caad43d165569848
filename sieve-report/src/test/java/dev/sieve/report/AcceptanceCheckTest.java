package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The acceptance check reads a report's results.json back and holds it to the goals. */
class AcceptanceCheckTest {
  @TempDir Path dir;

  private Object[] check(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status =
        new CommandLine(new AcceptanceCheck(new PrintStream(out, true, StandardCharsets.UTF_8)))
            .execute(args);
    return new Object[] {status, out.toString(StandardCharsets.UTF_8)};
  }

  @Test
  void readsTheRowsAReportWroteAndHoldsThemToTheGoals() throws Exception {
    ReportWriter.Run run = ReportFixture.run(0.1, 0.1, "AMD EPYC 7B13");
    ReportWriter.write(dir.toFile(), run);
    Path results = dir.resolve("results.json");
    ResultsFile read = ResultsFile.read(results);
    assertEquals(run.rows().size(), read.rows().size());
    Row xor16 = read.rows().stream().filter(r -> r.name.equals("sieve-xor16")).findFirst().get();
    assertTrue(xor16.excluded(), "the steady-state verdict survives the file");
    assertEquals(
        Acceptance.check(run.rows(), 10, true, null),
        Acceptance.check(read.rows(), 10, true, null));

    Object[] r = check(results.toString());
    String out = (String) r[1];
    // Ribbon 30 ns over the blocked Bloom's 12 ns: 2.5 > 1.6, a miss, so the exit status is 1
    assertEquals(1, r[0], out);
    assertTrue(
        out.contains("MISS Ribbon single lookup vs blocked Bloom single lookup, n=10^6: 2.500"),
        out);
    assertTrue(out.startsWith("Acceptance check: "), out);
    assertTrue(out.contains("NOT RUN Grafite FPR within its bound"), out);
    for (String line : out.split("\n")) {
      assertTrue(line.length() <= ConsoleSummary.WIDTH, line);
    }
  }

  @Test
  void aFileThatIsNoResultsJsonIsOneLineAndStatusTwo() throws Exception {
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"meta\": {}}");
    Object[] r = check(bad.toString());
    assertEquals(2, r[0]);
    List<String> lines = ((String) r[1]).lines().toList();
    assertEquals(1, lines.size(), lines.toString());
    assertFalse(lines.get(0).contains("Exception"), lines.get(0));
  }
}
