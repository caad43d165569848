package dev.sieve.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bench.Family;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 11's targets on hand-made rows: each at its own n, PASS at or under the limit, MISS over
 * it, NOT RUN when the n or a structure is absent; best-of for Xor8/Binary Fuse 8; the contract.
 */
class TargetsTest {
  private static final int N6 = Targets.N6;
  private static final int N7 = Targets.N7;

  static Row row(String name, Family family, int n, double posNs, double negNs, double buildNs) {
    Row r = new Row();
    r.name = name;
    r.family = family;
    r.description = name;
    r.n = n;
    r.bitsPerKeySetting = 10;
    r.sizeBits = 10L * n;
    r.positiveNs = posNs;
    r.negativeNs = negNs;
    r.buildNsPerKey = buildNs;
    r.objectCount = 3;
    r.buildAllocatedBytes = 9L * n;
    r.falseNegatives = 0;
    return r;
  }

  private static Map<String, Targets.Check> byId(List<Targets.Check> checks) {
    return checks.stream().collect(Collectors.toMap(Targets.Check::id, c -> c));
  }

  private static List<Row> fullRun() {
    List<Row> rows = new ArrayList<>();
    for (int n : new int[] {N6, N7}) {
      rows.add(row("fastfilter-blocked-bloom", Family.PEER, n, 10, 10, 5));
      rows.add(row("fastfilter-xor8", Family.PEER, n, 10, 10, 50));
      rows.add(row("raw-read-1x", Family.LIMIT, n, 5, 5, 1));
    }
    // at 10^7: batch 10/9.9 vs FastFilter 10/10 -> B1 0.99 PASS, B2 1.0 PASS (at the limit)
    rows.add(row(Targets.BLOCKED + "-batch", Family.SIEVE, N7, 10, 9.9, 20));
    rows.add(row(Targets.BLOCKED, Family.SIEVE, N7, 20, 16, 20));
    // at 10^6: batch neg 15.1/10 = 1.51 -> B3 MISS; pos 15/10 -> B4 PASS
    rows.add(row(Targets.BLOCKED + "-batch", Family.SIEVE, N6, 15, 15.1, 20));
    // single neg 18/10 = 1.8 -> S1 PASS (at the limit)
    rows.add(row(Targets.BLOCKED, Family.SIEVE, N6, 19, 18, 20));
    // Ribbon 1.6× positive but 1.7× negative of blocked Bloom single -> R1 MISS (worst ratio)
    rows.add(row(Targets.RIBBON, Family.SIEVE, N6, 30.4, 30.6, 90));
    // Xor8: batch 1.2×, fast hash 0.9× -> X1 takes the fast-hash row: PASS
    rows.add(row(Targets.XOR8 + "-batch", Family.SIEVE, N6, 12, 11, 55));
    rows.add(row(Targets.XOR8 + "-fasthash", Family.SIEVE, N6, 9, 8, 55));
    rows.add(row(Targets.XOR8 + "-prehashed", Family.SIEVE, N6, 1, 1, 55)); // never counts
    rows.add(row(Targets.XOR8, Family.SIEVE, N6, 14, 13, 55)); // 55/50 = 1.1 build: PASS
    rows.add(row(Targets.XOR8, Family.SIEVE, N7, 14, 13, 60)); // 60/50 = 1.2 build: MISS
    // Binary Fuse 8 has only its single row: X2 NOT RUN (single lookups do not count)
    rows.add(row(Targets.FUSE8, Family.SIEVE, N6, 9, 9, 40));
    return rows;
  }

  @Test
  void issue11TargetsEachAtTheirN() {
    Map<String, Targets.Check> c = byId(Targets.check(fullRun(), 10));
    assertEquals(Targets.Status.PASS, c.get("B1").status());
    assertEquals(0.99, c.get("B1").value(), 1e-12);
    assertEquals("n=10^7", c.get("B1").at());
    assertEquals(Targets.Status.PASS, c.get("B2").status());
    assertEquals(Targets.Status.MISS, c.get("B3").status());
    assertEquals(1.51, c.get("B3").value(), 1e-12);
    assertEquals("n=10^6", c.get("B3").at());
    assertEquals(Targets.Status.PASS, c.get("B4").status());
    assertEquals(Targets.Status.PASS, c.get("S1").status());
    assertEquals(1.8, c.get("S1").value(), 1e-12);
    // S2 at 10^7: batch/single = max(10/20, 9.9/16) = 0.61875 <= 0.65
    Targets.Check s2 = c.get("S2 " + Targets.BLOCKED);
    assertEquals(Targets.Status.PASS, s2.status());
    assertEquals(9.9 / 16, s2.value(), 1e-12);
    assertEquals(Targets.Status.MISS, c.get("R1").status());
    assertEquals(30.6 / 18, c.get("R1").value(), 1e-12);
    Targets.Check x1 = c.get("X1");
    assertEquals(Targets.Status.PASS, x1.status());
    assertEquals(0.9, x1.value(), 1e-12);
    assertTrue(x1.detail().startsWith(Targets.XOR8 + "-fasthash"), x1.detail());
    assertEquals(Targets.Status.NOT_RUN, c.get("X2").status());
    assertEquals(Targets.Status.PASS, c.get("X3a").status());
    assertEquals(1.1, c.get("X3a").value(), 1e-12);
    assertEquals(Targets.Status.MISS, c.get("X3b").status());
    assertEquals(Targets.Status.PASS, c.get("C").status());
    // 12 of issue 11, and issue 20's 2a and 2b at each of the run's two n (NOT RUN: no row)
    assertEquals(16, c.values().stream().filter(Targets.Check::primary).count());
    assertEquals(Targets.Status.NOT_RUN, c.get("2a 10^6").status());
    // the secondary list is held at the run's largest n and never mixes with the primary ids
    assertFalse(c.get("T1").primary());
    assertEquals("n=10^7", c.get("T1").at());
    assertEquals(Targets.Status.MISS, c.get("T1").status()); // 16 / 5 > 1.3
  }

  @Test
  void targetsStatedAtAnAbsentNAreNotRun() {
    List<Row> rows =
        List.of(
            row(Targets.BLOCKED + "-batch", Family.SIEVE, 10_000, 1, 1, 1),
            row(Targets.BLOCKED, Family.SIEVE, 10_000, 2, 2, 1),
            row("fastfilter-blocked-bloom", Family.PEER, 10_000, 1, 1, 1));
    Map<String, Targets.Check> c = byId(Targets.check(rows, 10));
    for (String id : List.of("B1", "B2", "B3", "B4", "S1", "S2", "X1", "X2", "R1", "X3a")) {
      assertEquals(Targets.Status.NOT_RUN, c.get(id).status(), id);
      assertTrue(Double.isNaN(c.get(id).value()), id);
    }
    assertTrue(c.get("B1").detail().contains("10^7"), c.get("B1").detail());
  }

  @Test
  void missingTimingsAreNotRunNotPass() {
    Row batch = row(Targets.BLOCKED + "-batch", Family.SIEVE, N6, Double.NaN, Double.NaN, 1);
    Row peer = row("fastfilter-blocked-bloom", Family.PEER, N6, 1, 1, 1);
    Map<String, Targets.Check> c = byId(Targets.check(List.of(batch, peer), 10));
    assertEquals(Targets.Status.NOT_RUN, c.get("B3").status());
    assertEquals("timings missing", c.get("B3").detail());
  }

  @Test
  void bestOfCandidatesAreBatchAndFastHashRowsOnly() {
    assertTrue(Targets.isBestOfCandidate("sieve-xor8", "sieve-xor8-batch"));
    assertTrue(Targets.isBestOfCandidate("sieve-xor8", "sieve-xor8-fasthash"));
    assertTrue(Targets.isBestOfCandidate("sieve-xor8", "sieve-xor8-fasthash-batch"));
    assertFalse(Targets.isBestOfCandidate("sieve-xor8", "sieve-xor8"));
    assertFalse(Targets.isBestOfCandidate("sieve-xor8", "sieve-xor8-prehashed"));
    assertFalse(Targets.isBestOfCandidate("sieve-xor8", "sieve-xor16-batch"));
    assertFalse(Targets.isBestOfCandidate("sieve-xor8", "sieve-xor8-fasthash-prehashed"));
  }

  @Test
  void falseNegativesInAnyRowMissTheContract() {
    Row bad = row(Targets.BLOCKED + "-batch", Family.SIEVE, 10, 1, 1, 1);
    bad.falseNegatives = 2;
    Row good = row(Targets.BLOCKED, Family.SIEVE, 10, 1, 1, 1);
    Map<String, Targets.Check> c = byId(Targets.check(List.of(bad, good), 10));
    assertEquals(Targets.Status.MISS, c.get("C").status());
    assertEquals(2, c.get("C").value());
    assertTrue(c.get("C").detail().contains(Targets.BLOCKED + "-batch"), c.get("C").detail());
  }

  @Test
  void nLabels() {
    assertEquals("10^4", Targets.nLabel(10_000));
    assertEquals("10^7", Targets.nLabel(10_000_000));
    assertEquals("2,000", Targets.nLabel(2_000));
    assertEquals("1", Targets.nLabel(1));
  }

  /**
   * Issue 20's target 2: the fastest flagless mutable Bloom row against FastFilter's BlockedBloom
   * at each n of the run; a row with a higher measured FPR than FastFilter's does not count; the
   * split-block and blocked rows count only where the SIMD path did not run.
   */
  @Test
  void issue20FlaglessMutableBloomTakesTheFastestEligibleRow() {
    List<Row> rows = new ArrayList<>();
    Row ff = row(Targets.FF_BLOCKED, Family.PEER, N6, 6, 5, 5);
    ff.absentQueried = 1_000_000;
    ff.falsePositives = 13_000; // 1.3%
    rows.add(ff);
    Row twoWord = row(Targets.TWO_WORD, Family.SIEVE, N6, 7, 6, 5); // 1.2x
    twoWord.absentQueried = 1_000_000;
    twoWord.falsePositives = 10_800; // 1.08%
    rows.add(twoWord);
    Row fast = row(Targets.TWO_WORD + "-fasthash", Family.SIEVE, N6, 5.4, 4.5, 5); // 0.9x
    fast.absentQueried = 1_000_000;
    fast.falsePositives = 10_800;
    rows.add(fast);
    Row split = row(Targets.SPLIT_BLOCK + "-fasthash", Family.SIEVE, N6, 3, 2.5, 5); // 0.5x
    split.absentQueried = 1_000_000;
    split.falsePositives = 12_700;
    rows.add(split);
    Row loose = row(Targets.BLOCKED + "-fasthash", Family.SIEVE, N6, 1, 1, 5); // 0.2x, 3% FPR
    loose.absentQueried = 1_000_000;
    loose.falsePositives = 30_000;
    rows.add(loose);
    rows.add(row(Targets.TWO_WORD + "-batch", Family.SIEVE, N6, 6.6, 5.5, 5)); // 1.1x: MISS
    Map<String, Targets.Check> simd = byId(Targets.check(rows, 10, true));
    assertEquals(Targets.Status.PASS, simd.get("2a 10^6").status());
    assertEquals(0.9, simd.get("2a 10^6").value(), 1e-12);
    assertTrue(simd.get("2a 10^6").detail().startsWith(Targets.TWO_WORD + "-fasthash vs"));
    assertEquals(Targets.Status.MISS, simd.get("2b 10^6").status());
    assertEquals(1.1, simd.get("2b 10^6").value(), 1e-12);
    Map<String, Targets.Check> scalar = byId(Targets.check(rows, 10, false));
    // the split-block row counts without SIMD; the blocked row's 3% FPR rules it out
    assertEquals(0.5, scalar.get("2a 10^6").value(), 1e-12);
    assertFalse(scalar.containsKey("2a 10^7")); // n absent from the run: no line
  }
}
