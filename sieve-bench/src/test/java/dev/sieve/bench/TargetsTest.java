package dev.sieve.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The target logic on hand-made rows: PASS at or under the limit, MISS over it, NOT RUN when
 * absent.
 */
class TargetsTest {
  private static Row row(String name, Family family, int n, double negNs, double buildNs) {
    Row r = new Row();
    r.name = name;
    r.family = family;
    r.description = name;
    r.n = n;
    r.bitsPerKeySetting = 10;
    r.sizeBits = 10L * n;
    r.negativeNs = negNs;
    r.positiveNs = negNs;
    r.buildNsPerKey = buildNs;
    r.objectCount = 3;
    r.buildAllocatedBytes = 9L * n;
    r.falseNegatives = 0;
    return r;
  }

  private static Map<String, Targets.Check> byId(List<Targets.Check> checks) {
    return checks.stream().collect(Collectors.toMap(Targets.Check::id, c -> c));
  }

  @Test
  void ratiosPassMissAndNotRun() {
    List<Row> rows =
        List.of(
            row(Targets.BLOCKED, Family.SIEVE, 1000, 13.0, 10),
            row("raw-read-1x", Family.LIMIT, 1000, 10.0, 1),
            row("fastfilter-blocked-bloom", Family.PEER, 1000, 12.0, 5),
            row(Targets.BLOCKED, Family.SIEVE, 100, 5.0, 9),
            row("raw-read-1x", Family.LIMIT, 100, 5.0, 1));
    Map<String, Targets.Check> c = byId(Targets.check(rows, 10));
    assertEquals("PASS", c.get("T1").status()); // 13/10 = 1.3 exactly: at the limit passes
    assertEquals(1.3, c.get("T1").value(), 1e-12);
    assertEquals("MISS", c.get("T2").status()); // 13/12 > 1.0
    assertEquals("NOT RUN", c.get("T3").status()); // no guava row
    assertEquals("NOT RUN", c.get("T5").status());
    assertEquals("PASS", c.get("T7 " + Targets.BLOCKED).status()); // 10/9 ≤ 1.5
    assertEquals("PASS", c.get("T8 " + Targets.BLOCKED).status());
    // 9n allocated vs 2·1.25n + 8n = 10.5n
    assertEquals(9.0 / 10.5, c.get("T9 " + Targets.BLOCKED).value(), 1e-12);
  }

  @Test
  void falseNegativesAreReportedAsAViolation() {
    Row bad = row(Targets.BLOCKED, Family.SIEVE, 10, 1, 1);
    bad.falseNegatives = 2;
    Map<String, Targets.Check> c = byId(Targets.check(List.of(bad), 10));
    assertEquals("MISS", c.get("C " + Targets.BLOCKED).status());
  }
}
