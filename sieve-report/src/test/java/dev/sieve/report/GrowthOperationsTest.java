package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.expand.ExpandableFilter;
import dev.sieve.report.GrowthOperations.CliSizing;
import dev.sieve.report.GrowthOperations.Figures;
import dev.sieve.report.GrowthOperations.Fpr;
import dev.sieve.report.GrowthOperations.RemoveCompact;
import dev.sieve.report.GrowthOperations.Sizing;
import dev.sieve.report.GrowthOperations.Union;
import dev.sieve.report.GrowthVerdicts.Outcome;
import dev.sieve.report.GrowthVerdicts.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The growth report's operations section: its figures against filters the test builds itself from
 * the same seeds, verdicts that follow the figures, and the section in {@code growth.md}.
 */
class GrowthOperationsTest {
  private static final double F = 0.01;
  private static final long N = 20_000;
  private static final long QUERIES = 200_000;

  private static Figures figures;

  @TempDir Path dir;

  @BeforeAll
  static void measure() {
    figures = GrowthOperations.measure(List.of(F), N, f -> QUERIES);
  }

  private static long[] randomKeys(long seed, long count) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] keys = new long[(int) count];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = random.nextLong();
    }
    return keys;
  }

  private static ExpandableFilter unhinted(long[]... parts) {
    ExpandableFilter filter = ExpandableFilter.builder().fpRate(F).create();
    for (long[] part : parts) {
      for (long k : part) {
        filter.addHash(k);
      }
    }
    return filter;
  }

  private static long falsePositives(ExpandableFilter filter) {
    SplittableRandom absent = new SplittableRandom(GrowthOperations.SEED_ABSENT);
    long fp = 0;
    for (long q = 0; q < QUERIES; q++) {
      fp += filter.mayContainHash(absent.nextLong()) ? 1 : 0;
    }
    return fp;
  }

  @Test
  void theUnionFiguresAreThoseOfTwoFiltersBuiltApart() {
    Union u = figures.unions().get(0);
    assertEquals(N, u.keys());
    long[] a = randomKeys(GrowthOperations.SEED_A, N / 2);
    long[] b = randomKeys(GrowthOperations.SEED_B, N - N / 2);
    ExpandableFilter one = unhinted(a, b);
    ExpandableFilter left = unhinted(a);
    ExpandableFilter right = unhinted(b);
    assertEquals(falsePositives(left), u.sideA().falsePositives());
    assertEquals(falsePositives(right), u.sideB().falsePositives());
    left.union(right);
    assertEquals(one.sizeInBits(), u.oneBits());
    assertEquals(left.sizeInBits(), u.unionBits());
    assertEquals((double) left.sizeInBits() / one.sizeInBits(), u.memoryRatio(), 1e-12);
    assertEquals(falsePositives(left), u.union().falsePositives());
    assertEquals(QUERIES, u.union().queries());
    assertEquals(left.modelledFpRate(), u.unionModel(), 1e-15);
    assertEquals(0, u.falseNegatives());
    assertEquals(0, u.recipeFalseNegatives());
    // the recipe's sides are built at f / 2, so its model is under f where the plain union's is not
    assertTrue(u.recipeModel() <= F, "recipe model " + u.recipeModel());
    assertTrue(u.unionModel() > u.recipeModel());
  }

  @Test
  void theRemoveFiguresAreThoseOfAFilterEmptiedByHalf() {
    assertEquals(2, figures.removes().size());
    long[] keys = randomKeys(GrowthOperations.SEED_GROWN, N);
    for (RemoveCompact r : figures.removes()) {
      ExpandableFilter filter =
          r.hint() == 0
              ? ExpandableFilter.builder().fpRate(F).create()
              : ExpandableFilter.builder().fpRate(F).expectedKeys(r.hint()).create();
      for (long k : keys) {
        filter.addHash(k);
      }
      for (int i = 0; i < N / 2; i++) {
        assertTrue(filter.removeHash(keys[i]), "an added key is removed");
      }
      assertEquals(filter.sizeInBits(), r.bitsBefore());
      assertEquals(falsePositives(filter), r.afterRemove().falsePositives());
      assertEquals(filter.compact(), r.halvings());
      assertEquals(filter.sizeInBits(), r.bitsAfter());
      assertEquals(falsePositives(filter), r.afterCompact().falsePositives());
      assertEquals(filter.shrinkToFit(), r.refitted());
      assertEquals(filter.sizeInBits(), r.bitsShrunk());
      assertEquals(falsePositives(filter), r.afterShrink().falsePositives());
      assertEquals(0, r.shrinkFalseNegatives());
      assertEquals(0, r.removeFailures());
      assertEquals(0, r.removedFalseNegatives());
      assertEquals(0, r.compactFalseNegatives());
      assertEquals(N / 2, r.remaining());
      assertEquals(GrowthOperations.rightSizedBits(F, N / 2), r.rightSizedBits());
      assertEquals((double) r.bitsAfter() / r.rightSizedBits(), r.ratioAfter(), 1e-12);
      assertEquals((double) r.bitsShrunk() / r.rightSizedBits(), r.ratioShrunk(), 1e-12);
    }
    assertEquals(N, figures.removes().get(1).hint(), "the second row is sized for the keys");
  }

  @Test
  void theSizingRatioIsTheModelOverTheRateAsked() {
    TreeSet<Double> rates = GrowthOperations.sweepRates(List.of(F));
    assertTrue(rates.size() >= 61);
    assertEquals(1e-4, rates.first(), 1e-12);
    assertEquals(0.2, rates.last(), 1e-9);
    assertEquals(rates.size(), figures.sweep().size());
    Sizing picked = figures.sweep().get(23);
    ExpandableFilter filter =
        ExpandableFilter.builder()
            .fpRate(picked.fpRate())
            .expectedKeys(GrowthOperations.SIZING_KEYS)
            .create();
    for (long k : randomKeys(GrowthOperations.SEED_SIZING, GrowthOperations.SIZING_KEYS)) {
      filter.addHash(k);
    }
    assertEquals(filter.modelledFpRate() / picked.fpRate(), picked.ratio(), 1e-12);
    // sieve build's path sizes by the same rule as the hint, so at the same count the same model
    CliSizing cli = figures.cli().get(0);
    assertEquals(cli.hintedModel(), cli.cliModel(), 1e-15);
    Sizing atF = figures.sweep().stream().filter(s -> s.fpRate() == F).findFirst().orElseThrow();
    assertEquals(atF.model(), cli.hintedModel(), 1e-15);
  }

  @Test
  void everyVerdictFollowsItsFigure() {
    List<Verdict> verdicts = GrowthOperationsSection.verdicts(figures);
    Union u = figures.unions().get(0);
    assertEquals(
        u.memoryRatio() <= GrowthOperationsSection.UNION_MEMORY_TARGET,
        met(verdicts, "union", "memory"));
    assertEquals(u.union().upper() <= F, met(verdicts, "union", "FPR"));
    assertEquals(
        u.recipe().upper() <= F, met(verdicts, "union of two filters built at f/2", "FPR"));
    assertTrue(met(verdicts, "union", "no false negative"));
    for (RemoveCompact r : figures.removes()) {
      String label = "remove and compact, " + r.label();
      assertTrue(met(verdicts, label, "every remove"));
      assertTrue(met(verdicts, label, "no false negative"));
      assertEquals(
          r.ratioShrunk() <= GrowthOperationsSection.COMPACT_MEMORY_TARGET,
          met(verdicts, label, "memory"));
      assertEquals(
          r.afterRemove().upper() <= F
              && r.afterCompact().upper() <= F
              && r.afterShrink().upper() <= F,
          met(verdicts, label, "FPR"));
    }
    boolean allIn = figures.sweep().stream().allMatch(s -> s.ratio() >= 0.5 && s.ratio() <= 1.0);
    assertEquals(allIn, met(verdicts, "sizing, expectedKeys(n)", "modelled"));
    CliSizing c = figures.cli().get(0);
    assertEquals(
        c.cliRatio() >= 0.5 && c.cliRatio() <= 1.0,
        met(verdicts, "sizing, sieve build's path", "modelled"));
    assertEquals(
        c.hinted().upper() <= F && c.cli().upper() <= F,
        met(verdicts, "sizing, both paths", "FPR"));
  }

  private static boolean met(List<Verdict> verdicts, String structure, String targetStart) {
    List<Verdict> found =
        verdicts.stream()
            .filter(v -> v.structure().equals(structure) && v.target().startsWith(targetStart))
            .toList();
    assertEquals(1, found.size(), structure + " / " + targetStart + " in " + verdicts);
    assertTrue(found.get(0).outcome() != Outcome.NOT_MEASURED);
    return found.get(0).outcome() == Outcome.MET;
  }

  @Test
  void aFalseNegativeAFailedRemoveOrTooMuchMemoryIsMissed() {
    Fpr low = new Fpr(10, 100_000);
    Fpr high = new Fpr(2_000, 100_000);
    Figures bad =
        new Figures(
            List.of(new Union(F, 1_000, 1_200, 1_000, high, 0.02, low, low, 1, low, 0.005, 0)),
            List.of(
                new RemoveCompact(
                    F, 0, 1_000, 1, low, 0, 10_000, 1, 9_500, low, 2, true, 9_000, low, 0, 1_000)),
            List.of(new Sizing(F, 0.004), new Sizing(0.001, 0.0008)),
            List.of(new CliSizing(F, 0.0066, low, 0.011, high)));
    List<Verdict> verdicts = GrowthOperationsSection.verdicts(bad);
    assertTrue(!met(verdicts, "union", "memory"), "1.2× one filter");
    assertTrue(!met(verdicts, "union", "FPR"), "2% measured");
    assertTrue(met(verdicts, "union of two filters built at f/2", "FPR"));
    assertTrue(!met(verdicts, "union", "no false negative"), "one key absent");
    assertTrue(!met(verdicts, "remove and compact, unhinted", "every remove"), "one failed");
    assertTrue(!met(verdicts, "remove and compact, unhinted", "no false negative"));
    assertTrue(!met(verdicts, "remove and compact, unhinted", "memory"), "9× right-sized");
    assertTrue(met(verdicts, "remove and compact, unhinted", "FPR"));
    assertTrue(!met(verdicts, "sizing, expectedKeys(n)", "modelled"), "0.4 is under f/2");
    assertTrue(!met(verdicts, "sizing, sieve build's path", "modelled"), "1.1 is over f");
    assertTrue(!met(verdicts, "sizing, both paths", "FPR"));
  }

  @Test
  void theSectionIsAppendedToGrowthMdWithItsVerdictsAndCsv() throws Exception {
    Files.writeString(dir.resolve("growth.md"), "# Growable filters\n\nearlier sections\n");
    GrowthOperationsSection.write(dir, figures);
    String md = Files.readString(dir.resolve("growth.md"));
    assertTrue(md.startsWith("# Growable filters\n\nearlier sections\n"), md);
    assertTrue(md.contains(GrowthOperationsSection.HEADING), md);
    assertTrue(md.contains("### Union"), md);
    assertTrue(md.contains("### Remove and compact"), md);
    assertTrue(md.contains("### Sizing"), md);
    assertTrue(md.contains("| 0.0100000 | 20,000 |"), md);
    for (Verdict v : GrowthOperationsSection.verdicts(figures)) {
      assertTrue(
          md.contains("| " + v.structure() + " | " + v.target() + " | " + v.outcome().mark),
          v.toString());
    }
    List<String> csv = Files.readAllLines(dir.resolve("growth-operations.csv"));
    assertEquals("operation,filter,fp_rate,keys,figure,value", csv.get(0));
    assertTrue(
        csv.contains(
            String.format(
                java.util.Locale.ROOT,
                "union,unhinted,0.0100000,20000,union_bits,%d",
                figures.unions().get(0).unionBits())),
        String.join("\n", csv));
    assertEquals(
        figures.sweep().size(),
        csv.stream()
            .filter(l -> l.startsWith("sizing,expected-keys,") && l.contains(",model_ratio,"))
            .count());
  }

  @Test
  void theReportCommandWritesTheSectionIntoItsGrowthDirectory() throws Exception {
    Path out = dir.resolve("report");
    SmallGrowthReport.run(out, dir.resolve("results-page"), 5_000);
    String md = Files.readString(out.resolve("growth").resolve("growth.md"));
    assertTrue(md.contains("## Verdicts"), md);
    assertTrue(md.contains(GrowthOperationsSection.HEADING), md);
    assertTrue(md.contains("| 0.0100000 | 5,000 |"), md);
    assertTrue(
        Files.readAllLines(out.resolve("growth").resolve("growth-operations.csv")).size() > 100);
  }
}
