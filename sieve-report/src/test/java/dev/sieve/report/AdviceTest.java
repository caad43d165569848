package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bench.Family;
import dev.sieve.bench.Structures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which filter to pick, from the fixture's measured figures (not from a fixed ranking). */
class AdviceTest {
  private static String line(List<String> advice, String start) {
    return advice.stream()
        .filter(l -> l.startsWith(start))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line starting " + start + " in " + advice));
  }

  @Test
  void recommendsByNeedFromTheMeasuredFigures() {
    List<Row> rows = ReportFixture.rows();
    SteadyState.flag(rows);
    List<String> advice = Advice.recommend(rows);
    String mutable = line(advice, "Adding keys as they arrive");
    assertTrue(mutable.contains("for speed sieve-split-block-bloom — 9.5 ns"), mutable);
    assertTrue(mutable.contains("for space sieve-standard-bloom"), mutable);
    String fixed = line(advice, "All keys known when you build");
    assertTrue(fixed.contains("for speed sieve-binary-fuse8 (fast long-key hash) — 4.9 ns"), fixed);
    assertTrue(fixed.contains("for space sieve-bumped-ribbon"), fixed);
    String rocks = line(advice, "RocksDB");
    assertTrue(rocks.contains("sieve-blocked-bloom (batch API) for speed — 10.0 ns"), rocks);
    assertTrue(
        rocks.contains("sieve-ribbon for space — 7.0 bits/key at 1.00% FPR (31% fewer"), rocks);
    assertTrue(rocks.contains("3.0× the lookup time"), rocks);
    assertTrue(line(advice, "Parquet").contains("sieve-split-block-bloom — 9.5 ns"));
    assertTrue(line(advice, "Key count not known").contains("sieve-scalable-bloom — 40.0 ns"));
    assertTrue(line(advice, "Keys must be removed").contains("sieve-cuckoo8"));
    assertTrue(line(advice, "For scale").contains("1.45 ns"));
    // the flagged Xor16 (0.5 ± 3 ns) would be the fastest of all: never recommended
    assertTrue(advice.stream().noneMatch(l -> l.contains("xor16")), advice.toString());
    // the advice names filters and needs in words, never by a letter-and-digit code
    assertTrue(advice.stream().noneMatch(l -> l.matches(".*\\b([BSRX][1-4])\\b.*")));
  }

  @Test
  void theChoiceFollowsTheFigures() {
    List<Row> rows = ReportFixture.rows();
    rows.stream()
        .filter(r -> r.name.equals("sieve-standard-bloom"))
        .forEach(r -> r.positiveNs = r.negativeNs = 5.0); // now the fastest mutable filter too
    SteadyState.flag(rows);
    String mutable = line(Advice.recommend(rows), "Adding keys as they arrive");
    assertTrue(
        mutable.contains("sieve-standard-bloom is both the fastest and the smallest"), mutable);
    // the split-block filter flagged: Parquet's need has no steady-state row, so no line for it
    List<Row> flagged = ReportFixture.rows();
    flagged.stream()
        .filter(r -> r.name.equals("sieve-split-block-bloom"))
        .forEach(r -> r.negativeNsError = 100);
    SteadyState.flag(flagged);
    List<String> advice = Advice.recommend(flagged);
    assertFalse(advice.stream().anyMatch(l -> l.startsWith("Parquet")), advice.toString());
    assertTrue(
        line(advice, "Adding keys as they arrive")
            .contains("for speed sieve-blocked-bloom (batch API)"));
  }

  @Test
  void aRunOnTheVectorModuleAlsoNamesTheFastestFilterWithoutIt() {
    List<Row> rows = ReportFixture.rows();
    SteadyState.flag(rows);
    String start = "Adding keys as they arrive, on a JVM started without";
    // the fastest mutable filter is the split-block Bloom, timed on its SIMD probe
    String flagless = line(Advice.recommend(rows, true), start);
    assertTrue(flagless.contains(": sieve-standard-bloom, the fastest"), flagless);
    assertTrue(flagless.contains("25.0 ns per lookup"), flagless);
    // a scalar run measured what a flagless JVM gets: nothing to add
    assertFalse(Advice.recommend(rows, false).stream().anyMatch(l -> l.startsWith(start)));
    // a fastest mutable filter with no SIMD path needs no second sentence
    List<Row> plain = ReportFixture.rows();
    plain.stream()
        .filter(r -> r.name.equals("sieve-standard-bloom"))
        .forEach(r -> r.positiveNs = r.negativeNs = 5.0);
    SteadyState.flag(plain);
    assertFalse(Advice.recommend(plain, true).stream().anyMatch(l -> l.startsWith(start)));
  }

  @Test
  void noSteadyRowNoRecommendation() {
    List<Row> rows = ReportFixture.rows();
    rows.forEach(r -> r.negativeNsError = 1e6);
    SteadyState.flag(rows);
    List<String> advice = Advice.recommend(rows);
    assertEquals(1, advice.size());
    assertTrue(advice.get(0).startsWith("No recommendation"), advice.get(0));
  }

  @Test
  void theExpandableFilterIsAdvisedForGrowthWithDeletesAndMerges() {
    List<Row> rows = ReportFixture.rows();
    // slower than the Cuckoo filter, faster than the scalable Bloom filter
    rows.add(ReportFixture.filter("sieve-expandable", dev.sieve.bench.Family.SIEVE, 35, 17, 0.004));
    SteadyState.flag(rows);
    List<String> advice = Advice.recommend(rows);
    assertTrue(
        line(advice, "Key count not known in advance").contains("sieve-expandable — 35.0 ns"));
    assertTrue(
        line(advice, "Key count not known and keys removed or filters merged")
            .contains("sieve-expandable"));
    // the fastest of the filters that remove: the Cuckoo filter, not the expandable one
    assertTrue(line(advice, "Keys must be removed").contains("sieve-cuckoo8"));
    // a growable filter is not "sized for n up front" nor a pick for keys added as they arrive
    assertFalse(line(advice, "Adding keys as they arrive").contains("expandable"));
    // without the row, no line for growth with deletes
    List<String> without = Advice.recommend(ReportFixture.rows());
    assertTrue(without.stream().noneMatch(l -> l.contains("filters merged")), without.toString());
  }

  /**
   * The advice chooses among what the run measured, so the default run measures every filter it can
   * recommend: given the default set's rows, an unknown key count goes to the faster of the two
   * growable filters, and the two-word Bloom competes among the mutable ones.
   */
  @Test
  void theDefaultRunGivesTheAdviceEveryFilterToChooseAmong() {
    List<Row> rows = new ArrayList<>();
    for (String name : RowSets.DEFAULT) {
      double ns =
          switch (name) {
            case "sieve-scalable-bloom" -> 66.9;
            case "sieve-expandable" -> 21.0;
            case "sieve-two-word-bloom" -> 5.0;
            default -> 12.0;
          };
      Family family = Structures.byName(name).family();
      rows.add(ReportFixture.filter(name, family, ns, 10.0, family == Family.SIEVE ? 0.01 : 0));
    }
    List<String> advice = Advice.recommend(rows);
    String unknown = line(advice, "Key count not known in advance: ");
    assertTrue(unknown.startsWith("Key count not known in advance: sieve-expandable —"), unknown);
    String mutable = line(advice, "Adding keys as they arrive");
    assertTrue(mutable.contains("sieve-two-word-bloom — 5.0 ns"), mutable);
  }
}
