package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bench.Family;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hot-path guard: a previous results.json read back, slowdowns over 10% flagged. */
class GuardTest {
  @TempDir Path dir;

  private static Map<String, Object> jsonRow(String name, int n, double pos, double neg, double b) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("n", n);
    m.put("bitsPerKeySetting", 10.0);
    m.put("positiveQueryNs", pos);
    m.put("negativeQueryNs", neg);
    m.put("buildNsPerKey", b);
    return m;
  }

  @Test
  void readsWhatTheReportWritesAndFlagsSlowdowns() throws Exception {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("meta", Map.of("note", "a \"quoted\" string\nwith a newline"));
    json.put(
        "rows",
        List.of(
            jsonRow("sieve-blocked-bloom", 1000, 10, 10, 20),
            jsonRow("fastfilter-blocked-bloom", 1000, 5, 5, Double.NaN),
            jsonRow("sieve-xor8", 999, 1, 1, 1)));
    Path file = dir.resolve("results.json");
    Files.writeString(file, Json.write(json));
    List<Guard.Baseline> before = Guard.read(file);
    assertEquals(3, before.size());
    assertEquals("sieve-blocked-bloom", before.get(0).name());
    assertEquals(1000, before.get(0).n());
    assertEquals(10.0, before.get(0).positiveNs());
    assertTrue(Double.isNaN(before.get(1).buildNsPerKey())); // NaN was written as null

    Row bloom = AcceptanceTest.row("sieve-blocked-bloom", Family.SIEVE, 1000, 11.0, 11.5, 17);
    Row peer = AcceptanceTest.row("fastfilter-blocked-bloom", Family.PEER, 1000, 5, 5, 3);
    Row other = AcceptanceTest.row("sieve-xor8", Family.SIEVE, 1000, 1, 1, 1); // n differs
    List<Guard.Entry> entries = Guard.compare(List.of(bloom, peer, other), before);
    // bloom pos/neg/build and peer pos/neg (its build is unknown in the baseline)
    assertEquals(5, entries.size());
    assertEquals(Guard.Verdict.SAME, entries.get(0).verdict()); // 11/10 = 1.10: not over 10%
    assertEquals(1.1, entries.get(0).ratio(), 1e-12);
    assertEquals(Guard.Verdict.SLOWER, entries.get(1).verdict()); // 11.5/10
    assertEquals("neg ns", entries.get(1).metric());
    assertEquals(Guard.Verdict.FASTER, entries.get(2).verdict()); // 17/20
    assertEquals(Guard.Verdict.SAME, entries.get(3).verdict());
    assertEquals(Family.PEER, entries.get(3).family());
  }

  @Test
  void aFileThatIsNotResultsJsonIsOneClearError() throws Exception {
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"rows\": [1, 2");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Guard.read(bad));
    assertTrue(e.getMessage().contains("bad.json"), e.getMessage());
    Path noRows = dir.resolve("norows.json");
    Files.writeString(noRows, "{\"meta\": {}}");
    e = assertThrows(IllegalArgumentException.class, () -> Guard.read(noRows));
    assertTrue(e.getMessage().contains("no \"rows\""), e.getMessage());
  }
}
