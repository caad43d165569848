package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.report.GrowthTimings.Ratio;
import dev.sieve.report.GrowthTimings.Timing;
import dev.sieve.report.GrowthTimings.Verdict;
import dev.sieve.report.GrowthTimings.WorstInsert;
import dev.sieve.report.GrowthVerdicts.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The growth report's timings: verdicts from figures and errors, the outputs, the options. */
class GrowthTimingsTest {
  @TempDir Path dir;

  private static Timing lookup(String structure, String variant, double score, double error) {
    return new Timing(
        GrowthTimings.LOOKUP, 10_000_000, 0.01, structure, variant, score, error, "ns/lookup");
  }

  private static Timing writers(int count, double score, double error) {
    return new Timing(
        GrowthTimings.WRITERS, 10_000_000, 0.01, "expandable", "" + count, score, error, "ms/fill");
  }

  private static Verdict only(List<Verdict> verdicts, String what) {
    List<Verdict> mine = verdicts.stream().filter(v -> v.what().startsWith(what)).toList();
    assertEquals(1, mine.size(), what + " in " + verdicts);
    return mine.get(0);
  }

  @Test
  void aRatioIsJudgedOnlyWhenItsWholeIntervalIsOnOneSideOfTheGoal() {
    // 14 ± 1 against 10 ± 0.5: 1.4× in [1.24×, 1.58×], across 1.5×
    Ratio straddling = Ratio.of(lookup("e", "negative", 14, 1), lookup("r", "negative", 10, 0.5));
    assertEquals(1.4, straddling.value(), 1e-12);
    assertEquals(13.0 / 10.5, straddling.low(), 1e-12);
    assertEquals(15.0 / 9.5, straddling.high(), 1e-12);
    assertEquals(Outcome.NOT_MEASURED, straddling.against(1.5));
    // the same means with small errors: wholly under
    Ratio under = Ratio.of(lookup("e", "negative", 14, 0.1), lookup("r", "negative", 10, 0.1));
    assertEquals(Outcome.MET, under.against(1.5));
    // 16 ± 0.1 ÷ 10 ± 0.1: wholly over
    Ratio over = Ratio.of(lookup("e", "negative", 16, 0.1), lookup("r", "negative", 10, 0.1));
    assertEquals(Outcome.MISSED, over.against(1.5));
    // a mean far under the goal whose errors still reach it is not judged
    Ratio wide = Ratio.of(lookup("e", "negative", 10, 6), lookup("r", "negative", 10, 0.1));
    assertEquals(1.0, wide.value(), 1e-12);
    assertEquals(Outcome.NOT_MEASURED, wide.against(1.5));
    // no error estimate (one iteration), or a divisor whose interval reaches 0: not judged
    Ratio unknown = Ratio.of(lookup("e", "negative", 10, Double.NaN), lookup("r", "n", 10, 0.1));
    assertEquals(Outcome.NOT_MEASURED, unknown.against(1.5));
    assertTrue(Double.isInfinite(Ratio.of(lookup("e", "n", 1, 0), lookup("r", "n", 1, 2)).high()));
  }

  @Test
  void theVerdictsOfLookupsInsertsWritersAndTheWorstInsert() {
    List<Timing> timings =
        List.of(
            lookup("expandable", "negative", 5, 0.1),
            lookup("rightsized", "negative", 4, 0.1), // 1.25×: MET
            lookup("expandable", "positive", 9, 0.1),
            lookup("rightsized", "positive", 4, 0.1), // 2.25×: MISSED
            lookup("expandable-batch", "negative", 6, 2),
            lookup("rightsized-batch", "negative", 4, 0.5), // 1.5× ± a lot: not judged
            new Timing(GrowthTimings.INSERT, 10_000_000, 0.01, "expandable", "fill", 30, 1, "ns"),
            new Timing(GrowthTimings.INSERT, 10_000_000, 0.01, "rightsized", "fill", 20, 1, "ns"),
            writers(1, 100, 5),
            writers(2, 103, 5)); // overlapping: not readable, never MET
    List<WorstInsert> worst =
        List.of(
            new WorstInsert(
                10_000_000, 0.01, "expandable", 1_500_000, 8_388_608, true, 14, 900, 20));
    List<Verdict> v = GrowthTimings.verdicts(timings, worst);
    assertEquals(Outcome.MET, only(v, "expandable ÷ rightsized, negative").outcome());
    assertEquals(Outcome.MISSED, only(v, "expandable ÷ rightsized, positive").outcome());
    Verdict batch = only(v, "expandable-batch ÷ rightsized-batch, negative");
    assertEquals(Outcome.NOT_MEASURED, batch.outcome());
    assertTrue(batch.figure().contains(GrowthTimings.UNDECIDED), batch.figure());
    // the positive batch figures were not run: no verdict
    assertTrue(v.stream().noneMatch(x -> x.what().contains("batch, positive")), v.toString());
    // 30 ± 1 ÷ 20 ± 1 = 1.5× in [1.38×, 1.63×]: under 2×
    assertEquals(Outcome.MET, only(v, "expandable ÷ rightsized, amortized").outcome());
    Verdict w = only(v, "expandable, 2 writers");
    assertEquals(Outcome.NOT_MEASURED, w.outcome());
    assertTrue(w.figure().contains("not readable"), w.figure());
    Verdict slowest = only(v, "expandable, worst single insert");
    assertEquals(Outcome.MISSED, slowest.outcome());
    assertTrue(slowest.figure().contains("1,500,000 ns at insert #8,388,608"), slowest.figure());
    assertTrue(slowest.figure().contains("which grew the filter"), slowest.figure());
    assertEquals(
        Outcome.MET,
        GrowthTimings.verdicts(
                List.of(),
                List.of(new WorstInsert(1000, 0.01, "expandable", 999_999, 5, false, 3, 9, 20)))
            .get(0)
            .outcome());
    // writers: wholly faster with two is MET, wholly slower MISSED
    assertEquals(
        Outcome.MET,
        GrowthTimings.writers(1, 0.01, writers(1, 100, 5), writers(2, 80, 5)).outcome());
    assertEquals(
        Outcome.MISSED,
        GrowthTimings.writers(1, 0.01, writers(1, 100, 5), writers(2, 120, 5)).outcome());
  }

  @Test
  void theTableAndCsvCarryEveryFigure() {
    List<Timing> timings =
        List.of(
            lookup("expandable", "negative", 5.25, 0.125),
            lookup("rightsized", "negative", 4.5, Double.NaN),
            writers(2, 1234.5, 567.8));
    List<WorstInsert> worst =
        List.of(new WorstInsert(10_000_000, 0.01, "expandable", 450_000, 42, false, 14, 900, 20));
    List<Verdict> verdicts = GrowthTimings.verdicts(timings, worst);
    String md = GrowthTimings.markdown("How it ran.", timings, worst, verdicts);
    assertTrue(md.startsWith("\n## Timings\n\nHow it ran.\n"), md);
    assertTrue(
        md.contains("| 10^7 | 0.0100000 | lookup | expandable | negative: 5.250 ± 0.13 |"), md);
    assertTrue(md.contains("negative: 4.500 ± ? |"), md);
    assertTrue(md.contains("| 2 writer(s) | expandable | 1235 ± 568 | ms/fill |"), md);
    assertTrue(md.contains("| worst single insert | expandable | 450,000 ns at insert #42"), md);
    assertTrue(md.contains("| ✔ |"), md); // the worst insert under 1 ms
    String[] csv = GrowthTimings.csv(timings, worst).split("\n");
    assertEquals(5, csv.length);
    assertEquals("benchmark,n,fp_rate,structure,variant,score,error999,unit", csv[0]);
    assertEquals(
        "lookup,10000000,0.0100000,expandable,negative,5.25000,0.125000,ns/lookup", csv[1]);
    assertEquals("worst-insert,10000000,0.0100000,expandable,insert #42,450000,,ns", csv[4]);
  }

  @Test
  void readsTheLatencyLineAndPlansTheSizes() {
    String line =
        "expandable         n=10000000 max=812,345 ns (insert #8388608) max-growing=812,345 ns"
            + " (14 growth steps) max-other=95,000 ns p99.99=1,204 ns p99.9=310 ns p50=40 ns"
            + " timer=18 ns amortized=31.50 ns/insert";
    WorstInsert w = GrowthLatencyFork.parseLatency(line, 0.01);
    assertEquals(812_345, w.maxNs());
    assertEquals(8_388_608, w.index());
    assertTrue(w.grew());
    assertEquals(14, w.growthSteps());
    assertEquals(1_204, w.p9999Ns());
    assertEquals(18, w.timerNs());
    assertFalse(
        GrowthLatencyFork.parseLatency(
                line.replace("#8388608", "#5").replace("max-growing=812,345", "max-growing=7"),
                0.01)
            .grew());
    assertNull(GrowthLatencyFork.parseLatency("# Warmup Iteration   1: 3.2 ns/op", 0.01));
    assertEquals(List.of(10_000L), GrowthTimingsRun.sizes(10_000));
    assertEquals(List.of(10_000_000L), GrowthTimingsRun.sizes(50_000_000));
    assertEquals(List.of(10_000_000L, 100_000_000L), GrowthTimingsRun.sizes(1_000_000_000));
    assertThrows(IllegalArgumentException.class, () -> GrowthTimingsRun.sizes(0));
    assertEquals(List.of(0.01, 0.001), GrowthTimingsRun.rates(List.of(0.01, 0.001)));
    assertEquals(List.of(0.01, 0.001), GrowthTimingsRun.rates(List.of(0.001)));
    assertEquals("6g", GrowthTimingsRun.heap(10_000_000));
    assertEquals("20g", GrowthTimingsRun.heap(100_000_000));
    GrowthTimingsRun.Settings standard = GrowthTimingsRun.Settings.standard();
    double main = GrowthTimingsRun.plannedSeconds(10_000_000, 1, standard);
    assertTrue(main > 60 && main <= 300, "planned at 10^7: " + main);
    assertTrue(GrowthTimingsRun.plannedSeconds(100_000_000, 1, standard) > 2 * main);
    assertEquals(2 * main, GrowthTimingsRun.plannedSeconds(10_000_000, 2, standard), 1e-9);
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new GrowthTimingsRun.Settings(
                1, 100, 0, 100, 1, 1, List.of(), List.of(), List.of(), 0));
  }

  @Test
  void theTimingsAreOnByDefaultAndCanBeLeftOut() throws Exception {
    ReportCommand c = new ReportCommand();
    new CommandLine(c).parseArgs();
    assertTrue(c.growthTimings);
    new CommandLine(c).parseArgs("--growth-timings=false");
    assertFalse(c.growthTimings);
    new CommandLine(c).parseArgs("--growth-timings");
    assertTrue(c.growthTimings);
    GrowthReport.main(
        new String[] {
          "--max-n",
          "2000",
          "--structures",
          "expandable",
          "--queries",
          "1000",
          "--no-timings",
          "--out",
          dir.toString()
        });
    assertTrue(Files.readString(dir.resolve("growth.md")).contains("## Verdicts"));
    assertFalse(Files.readString(dir.resolve("growth.md")).contains("## Timings"));
    assertFalse(Files.exists(dir.resolve("growth-timings.csv")));
  }

  @Test
  void theReportLeavesTheTimingsOutWhenAsked() throws Exception {
    Path out = dir.resolve("report");
    SmallGrowthReport.run(out, dir.resolve("page"), 2_000);
    String md = Files.readString(out.resolve("growth/growth.md"));
    assertTrue(md.contains("## Verdicts"), md);
    assertFalse(md.contains("## Timings"), md);
    assertFalse(Files.exists(out.resolve("growth/growth-timings.csv")));
  }

  @Test
  void theRealJmhPathAtATinySizeWritesTheSection() throws Exception {
    Files.writeString(dir.resolve("growth.md"), "# Growable filters\n");
    GrowthTimingsRun.Settings tiny =
        new GrowthTimingsRun.Settings(
            1, 100, 1, 100, 1, 1, List.of("expandable"), List.of("expandable"), List.of(1), 0);
    GrowthTimingsRun.run(dir, List.of(0.01), 10_000, tiny);
    String md = Files.readString(dir.resolve("growth.md"));
    assertTrue(md.startsWith("# Growable filters\n\n## Timings\n"), md);
    assertTrue(md.contains("worst single insert"), md);
    List<String> csv = Files.readAllLines(dir.resolve("growth-timings.csv"));
    // lookups positive and negative, the fill, one writer, the worst insert
    assertEquals(6, csv.size(), csv.toString());
    for (String row : csv.subList(1, csv.size())) {
      double score = Double.parseDouble(row.split(",")[5]);
      assertTrue(score > 0 && Double.isFinite(score), row);
      assertTrue(row.contains(",10000,0.0100000,expandable,"), row);
    }
    assertTrue(
        Files.readString(dir.resolve("growth-timings-jmh.log")).contains("GrowthInsertLatency"));
  }
}
