package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.sst.DbFilterReport;
import dev.sieve.sst.DbView;
import dev.sieve.sst.FilterKind;
import dev.sieve.sst.Manifest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.SstFileReader;
import org.rocksdb.SstFileReaderIterator;
import org.rocksdb.TableProperties;

/**
 * {@code inspect DBDIR} and {@code query DBDIR} against a real database written by rocksdbjni
 * ({@link TestDatabase}: three column families, Bloom, partitioned Bloom and Ribbon with
 * bloom_before_level, files on L0–L3): the MANIFEST's live files, levels and key ranges against
 * {@code getLiveFilesMetaData}, the per-level files, keys and filter bytes against RocksDB's table
 * properties, and the point-lookup probe order against the keys each SST really holds.
 */
class DbViewTest {
  @TempDir static Path tmp;
  static TestDatabase.Db rocks;
  static DbView view;

  @BeforeAll
  static void writeDatabase() throws Exception {
    rocks = TestDatabase.create(tmp.resolve("db"), 24_000);
    view = DbView.open(rocks.dir(), 2, null);
  }

  private static String cfName(LiveFileMetaData f) {
    return new String(f.columnFamilyName(), StandardCharsets.UTF_8);
  }

  private static long number(String fileName) {
    String n = fileName.substring(fileName.lastIndexOf('/') + 1).replace(".sst", "");
    return Long.parseLong(n);
  }

  @Test
  void manifestListsExactlyRocksDbsLiveFilesWithTheirLevelsAndRanges() {
    assertEquals(DbView.Source.MANIFEST, view.source());
    assertTrue(view.errors().isEmpty(), () -> view.errors().toString());
    assertEquals(rocks.liveFiles().size(), view.tables().size());
    Map<Long, DbView.Table> byNumber = new HashMap<>();
    for (DbView.Table t : view.tables()) {
      byNumber.put(t.meta().number(), t);
    }
    for (LiveFileMetaData f : rocks.liveFiles()) {
      DbView.Table t = byNumber.get(number(f.fileName()));
      assertNotNull(t, () -> "not in the MANIFEST view: " + f.fileName());
      assertEquals(cfName(f), t.columnFamily().name(), f.fileName());
      assertEquals(f.level(), t.level(), f.fileName());
      assertEquals(f.size(), t.meta().fileSize(), f.fileName());
      assertEquals(f.size(), t.sst().fileSize(), f.fileName());
      assertArrayEquals(f.smallestKey(), t.meta().smallestUserKey(), f.fileName());
      assertArrayEquals(f.largestKey(), t.meta().largestUserKey(), f.fileName());
      assertEquals(f.smallestSeqno(), t.meta().smallestSeqno(), f.fileName());
      assertEquals(f.largestSeqno(), t.meta().largestSeqno(), f.fileName());
    }
    Map<Integer, Manifest.ColumnFamily> cfs = view.manifest().columnFamilies();
    assertEquals(
        List.of("default", "users", "events"),
        cfs.values().stream().map(Manifest.ColumnFamily::name).toList());
    // every column family has files on each of L0..L3
    for (String cf : TestDatabase.CFS) {
      for (int level = 0; level <= 3; level++) {
        final int lv = level;
        assertTrue(
            view.tables().stream()
                .anyMatch(t -> t.columnFamily().name().equals(cf) && t.level() == lv),
            cf + " has no file on L" + level);
      }
    }
  }

  @Test
  void perLevelFilesKeysAndFilterBytesMatchRocksDbsTableProperties() {
    // RocksDB's own numbers, summed per column family and level
    Map<String, long[]> expected = new TreeMap<>(); // cf/level -> files, entries, filter bytes
    for (LiveFileMetaData f : rocks.liveFiles()) {
      String cf = cfName(f);
      TableProperties p = null;
      for (Map.Entry<String, TableProperties> e : rocks.tableProperties().get(cf).entrySet()) {
        if (number(e.getKey()) == number(f.fileName())) {
          p = e.getValue();
        }
      }
      assertNotNull(p, "RocksDB gave no table properties for " + f.fileName());
      assertEquals(f.numEntries(), p.getNumEntries());
      long[] e = expected.computeIfAbsent(cf + "/L" + f.level(), k -> new long[3]);
      e[0]++;
      e[1] += p.getNumEntries();
      e[2] += p.getFilterSize();
    }
    Map<String, long[]> actual = new TreeMap<>();
    long totalFiles = 0;
    for (DbFilterReport.Row r : DbFilterReport.summarize(view)) {
      if (r.level() == DbFilterReport.TOTAL) {
        totalFiles += r.files();
        continue;
      }
      actual.put(
          r.columnFamilyName() + "/L" + r.level(),
          new long[] {r.files(), r.keys(), r.filterBytes()});
    }
    assertEquals(expected.keySet(), actual.keySet());
    for (String k : expected.keySet()) {
      assertArrayEquals(expected.get(k), actual.get(k), k);
    }
    assertEquals(rocks.liveFiles().size(), totalFiles);
    DbFilterReport.Row all = DbFilterReport.databaseTotal(DbFilterReport.summarize(view));
    assertEquals(rocks.liveFiles().size(), all.files());
    assertEquals(expected.values().stream().mapToLong(e -> e[1]).sum(), all.keys());
    assertEquals(expected.values().stream().mapToLong(e -> e[2]).sum(), all.filterBytes());
  }

  @Test
  void filterKindsFollowEachColumnFamilysPolicy() {
    for (DbFilterReport.Row r : DbFilterReport.summarize(view)) {
      if (r.level() == DbFilterReport.TOTAL) {
        continue;
      }
      String where = r.columnFamilyName() + " L" + r.level();
      switch (r.columnFamilyName()) {
        case "default":
          assertEquals(List.of("fastlocalbloom"), List.copyOf(r.kinds()), where);
          assertEquals(0, r.partitionedFiles(), where);
          break;
        case "users":
          assertEquals(r.files(), r.partitionedFiles(), where);
          // 16 bits/key: about 16 bits per key in the partitions
          assertTrue(r.bitsPerKey() > 15.5 && r.bitsPerKey() < 17.5, where + " " + r.bitsPerKey());
          break;
        case "events":
          // ribbonfilter:10:1: Bloom for flushes (L0), Ribbon for compactions into L1 and below
          String want =
              r.level() == 0 ? FilterKind.FAST_LOCAL_BLOOM.label() : FilterKind.RIBBON.label();
          assertEquals(List.of(want), List.copyOf(r.kinds()), where);
          break;
        default:
          throw new AssertionError("unexpected column family " + r.columnFamilyName());
      }
      assertEquals(r.files(), r.wholeKeyFiles(), where);
      assertEquals(0, r.prefixFiles(), where);
    }
  }

  @Test
  void everyKeyOfEverySstIsLetThroughByThatFileInThePointLookupOrder() throws Exception {
    long checked = 0;
    try (Options o = new Options();
        ReadOptions ro = new ReadOptions()) {
      for (DbView.Table t : view.tables()) {
        try (SstFileReader reader = new SstFileReader(o)) {
          reader.open(t.path().toString());
          try (SstFileReaderIterator it = reader.newIterator(ro)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
              byte[] key = it.key();
              List<DbView.Table> probed = view.probeOrder(t.columnFamily().id(), key);
              assertTrue(
                  probed.contains(t),
                  () ->
                      t
                          + " holds "
                          + new String(key, StandardCharsets.UTF_8)
                          + " but is not probed");
              assertTrue(t.sst().filter().mayContain(key), () -> t + " filter rejects its own key");
              checked++;
            }
          }
        }
      }
    }
    long written = rocks.keys().values().stream().mapToLong(java.util.Set::size).sum();
    assertEquals(written, checked);
  }

  @Test
  void probeOrderIsL0NewestFirstThenOneFilePerLevel() {
    String k = TestDatabase.key(16 * 100 + 15 + 2); // batch 4 (newest L0 flush) of 'events' (cf 2)
    int events = 2;
    List<DbView.Table> probed = view.probeOrder(events, k.getBytes(StandardCharsets.UTF_8));
    int lastLevel = -1;
    long lastL0Seq = Long.MAX_VALUE;
    java.util.Set<Integer> deeper = new java.util.HashSet<>();
    for (DbView.Table t : probed) {
      assertTrue(t.level() >= lastLevel, "levels in order");
      lastLevel = t.level();
      if (t.level() == 0) {
        assertTrue(t.meta().largestSeqno() < lastL0Seq, "L0 newest first");
        lastL0Seq = t.meta().largestSeqno();
      } else {
        assertTrue(deeper.add(t.level()), "one file on L" + t.level());
      }
    }
    assertEquals(0, probed.get(0).level());
    assertEquals(List.of(1, 2, 3), deeper.stream().sorted().toList());
  }

  @Test
  void queryCommandAgreesWithRocksDbPointLookupsForPresentKeys() throws Exception {
    List<String> sample = new ArrayList<>();
    for (String cf : TestDatabase.CFS) {
      int i = 0;
      for (String k : rocks.keys().get(cf)) {
        if (i++ % 997 == 0) {
          sample.add(cf + "\u0000" + k);
        }
      }
    }
    List<String> args = new ArrayList<>(List.of("query", rocks.dir().toString()));
    for (String s : sample) {
      args.add(s.substring(s.indexOf('\u0000') + 1));
    }
    CliRun run = CliRun.of(args.toArray(new String[0]));
    assertEquals(0, run.status(), run.err());
    String[] lines = run.out().split("\n");
    assertEquals(sample.size() * TestDatabase.CFS.length, lines.length);
    for (String s : sample) {
      String cf = s.substring(0, s.indexOf('\u0000'));
      String k = s.substring(s.indexOf('\u0000') + 1);
      String line =
          Stream.of(lines)
              .filter(l -> l.startsWith(k + "\t" + cf + "\t"))
              .findFirst()
              .orElseThrow();
      String[] f = line.split("\t");
      assertEquals("maybe", f[2], line);
      assertTrue(f[3].contains("=maybe"), line);
    }
  }

  @Test
  void inspectPrintsEveryColumnFamilyLevelAndTheWhatIf() {
    CliRun run = CliRun.of("inspect", rocks.dir().toString());
    assertEquals(0, run.status(), run.err());
    for (String cf : TestDatabase.CFS) {
      assertTrue(run.out().contains("column family '" + cf + "'"), run.out());
      assertTrue(run.out().contains("what-if, column family '" + cf + "'"), run.out());
    }
    assertTrue(run.out().contains("bloomfilter:10"), run.out());
    assertTrue(run.out().contains("ribbonfilter:16"), run.out());
    // the Ribbon column family's bloom_before_level is taken from where its Ribbon filters start
    assertTrue(run.out().contains("ribbonfilter:10:1"), run.out());
    assertTrue(run.out().contains(DbFilterReport.CPU_SOURCE), run.out());
    assertEquals("", run.err());
  }

  @Test
  void inspectJsonHasTheDocumentedFields() {
    CliRun run = CliRun.of("inspect", rocks.dir().toString(), "--json", "--what-if", "12:2");
    assertEquals(0, run.status(), run.err());
    String j = run.out().trim();
    assertTrue(j.startsWith("{\"database\": ") && j.endsWith("}"), j);
    for (String field :
        List.of(
            "\"source\": \"manifest\"",
            "\"column_families\": [",
            "\"name\": \"events\"",
            "\"levels\": [",
            "\"filter_bytes\": ",
            "\"modelled_fpr\": ",
            "\"what_if\": {",
            "\"policy\": \"ribbonfilter:12:2\"",
            "\"bits_per_key_source\": \"given\"",
            "\"false_positive_probes\": ",
            "\"total\": {\"level\": null, \"files\": " + rocks.liveFiles().size(),
            "\"errors\": []")) {
      assertTrue(j.contains(field), field + " in " + j);
    }
  }

  @Test
  void withoutCurrentItScansTheDirectoryAndSaysSo() throws Exception {
    Path scan = tmp.resolve("scan");
    Files.createDirectories(scan);
    try (Stream<Path> s = Files.list(rocks.dir())) {
      for (Path p : s.filter(p -> p.toString().endsWith(".sst")).toList()) {
        Files.copy(p, scan.resolve(p.getFileName()));
      }
    }
    CliRun run = CliRun.of("inspect", scan.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("no CURRENT file: a directory scan"), run.out());
    assertTrue(run.out().contains(rocks.liveFiles().size() + " live SST files"), run.out());
    assertFalse(run.out().contains("what-if"), run.out());
  }

  @Test
  void aMissingLiveFileIsOneLineAndExitStatusOne() throws Exception {
    Path copy = tmp.resolve("copy");
    Files.createDirectories(copy);
    try (Stream<Path> s = Files.list(rocks.dir())) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        Files.copy(p, copy.resolve(p.getFileName()));
      }
    }
    String gone = view.tables().get(0).fileName();
    Files.delete(copy.resolve(gone));
    CliRun run = CliRun.of("inspect", copy.toString());
    assertEquals(1, run.status());
    assertEquals(1, run.err().lines().count(), run.err());
    assertTrue(run.err().contains(gone) && run.err().contains("no such file"), run.err());
    assertTrue(
        run.out().contains("(" + (view.tables().size() - 1) + " read, 1 unreadable)"), run.out());
  }

  @Test
  void badWhatIfIsUsageError() {
    CliRun run = CliRun.of("inspect", rocks.dir().toString(), "--what-if", "ten");
    assertEquals(2, run.status());
    assertTrue(run.err().contains("--what-if 'ten'"), run.err());
    run = CliRun.of("inspect", rocks.dir().toString(), "--what-if", "0.2");
    assertEquals(2, run.status());
  }

  @Test
  void verifyReachesEveryBlockAndFindsAFlippedDataByte() throws Exception {
    CliRun run = CliRun.of("inspect", rocks.dir().toString(), "--verify");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("checksums verified: "), run.out());
    assertTrue(
        run.out().contains("in " + rocks.liveFiles().size() + " files, every block"), run.out());

    DbView.Table t = view.tables().get(view.tables().size() - 1);
    CliRun one = CliRun.of("inspect", t.path().toString(), "--verify", "--json");
    assertEquals(0, one.status(), one.err());
    long dataBlocks = t.sst().properties().number("rocksdb.num.data.blocks").getAsLong();
    assertTrue(one.out().contains("\"verified_data_blocks\": " + dataBlocks), one.out());

    Path copy = tmp.resolve("flipped");
    Files.createDirectories(copy);
    try (Stream<Path> s = Files.list(rocks.dir())) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        Files.copy(p, copy.resolve(p.getFileName()));
      }
    }
    Path victim = copy.resolve(t.fileName());
    byte[] bytes = Files.readAllBytes(victim);
    bytes[100] ^= 0x04; // in the first data block: the filter report never reads it
    Files.write(victim, bytes);
    assertEquals(0, CliRun.of("inspect", copy.toString()).status(), "without --verify unseen");
    CliRun bad = CliRun.of("inspect", copy.toString(), "--verify");
    assertEquals(1, bad.status());
    assertEquals(1, bad.err().lines().count(), bad.err());
    assertTrue(
        bad.err().contains(t.fileName()) && bad.err().contains("checksum mismatch"), bad.err());
  }

  @Test
  void whatIfModelMatchesTheFiltersRocksDbWrote() {
    // 'events' is ribbonfilter:10:1 and 'default' bloomfilter:10: the what-if rows of the policy
    // in use must price each level at what RocksDB actually wrote (the model takes
    // optimize_filters_for_memory=false: Bloom within 3%, Ribbon within one 16-byte segment a file
    // plus 2%)
    for (DbFilterReport.WhatIf w : DbFilterReport.whatIf(view, Double.NaN, null)) {
      if (w.name().equals("users")) {
        continue; // partitioned: the model prices one filter per file
      }
      assertEquals(10.0, w.bitsPerKey(), w.name());
      DbFilterReport.PolicyCost current = w.policies().get(0);
      DbFilterReport.PolicyCost same =
          w.policies().get(w.name().equals("events") ? 3 : 1); // ribbonfilter:10:1, bloomfilter:10
      assertEquals(
          w.name().equals("events") ? "ribbonfilter:10:1" : "bloomfilter:10", same.policy());
      for (int i = 0; i < current.levels().size(); i++) {
        DbFilterReport.LevelCost c = current.levels().get(i);
        DbFilterReport.LevelCost m = same.levels().get(i);
        String where =
            w.name() + " L" + c.level() + ": current " + c.bytes() + ", model " + m.bytes();
        boolean ribbon = w.name().equals("events") && c.level() >= 1;
        if (ribbon) {
          // one segment a file, and 2% for the model's equal split of the level's keys over its
          // files (RocksDB's outputs are cut by size, not evenly)
          assertTrue(Math.abs(c.bytes() - m.bytes()) <= 16L * c.files() + 0.02 * c.bytes(), where);
        } else {
          assertTrue(Math.abs(c.bytes() - m.bytes()) <= 0.03 * c.bytes(), where);
        }
        assertEquals(c.probes(), m.probes(), where);
        assertEquals(c.fpRate(), m.fpRate(), 0.15 * c.fpRate(), where);
      }
      // and Ribbon below L0 saves memory where the family is all Bloom
      if (w.name().equals("default")) {
        assertTrue(w.policies().get(2).bytes() < 0.8 * current.bytes(), "ribbonfilter:10 saves");
      }
    }
  }

  @Test
  void aLiveFileShorterThanTheManifestSaysIsCalledTruncated() throws Exception {
    Path copy = tmp.resolve("truncated");
    Files.createDirectories(copy);
    try (Stream<Path> s = Files.list(rocks.dir())) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        Files.copy(p, copy.resolve(p.getFileName()));
      }
    }
    DbView.Table t = view.tables().get(2);
    byte[] bytes = Files.readAllBytes(copy.resolve(t.fileName()));
    Files.write(copy.resolve(t.fileName()), java.util.Arrays.copyOf(bytes, bytes.length - 1000));
    CliRun run = CliRun.of("query", copy.toString(), TestDatabase.key(16));
    assertEquals(1, run.status());
    assertTrue(
        run.err().contains(t.fileName())
            && run.err().contains("truncated: the file has " + (bytes.length - 1000) + " bytes")
            && run.err().contains("the MANIFEST records " + bytes.length),
        run.err());
  }

  @Test
  void aDirectoryWithoutCurrentOrSstFilesIsNotADatabase() throws Exception {
    Path empty = tmp.resolve("empty");
    Files.createDirectories(empty);
    Files.writeString(empty.resolve("index.tsv"), "partition-00000.block\t00\t10\n");
    for (String[] args :
        new String[][] {{"inspect", empty.toString()}, {"query", empty.toString(), "k"}}) {
      CliRun run = CliRun.of(args);
      assertEquals(1, run.status(), args[0]);
      assertEquals(1, run.err().lines().count(), run.err());
      assertTrue(run.err().contains("not a RocksDB database directory"), run.err());
    }
  }

  @Test
  void cpuFromAReportPricesTheProbesWithItsFigures() throws Exception {
    Path report = tmp.resolve("results.json");
    Files.writeString(
        report,
        "{\"meta\": {\"date\": \"2026-12-03T10:00:00Z\", \"n\": [10000, 1000000]},\n"
            + " \"rows\": [\n"
            + "  {\"name\": \"sieve-blocked-bloom\", \"n\": 10000, \"bitsPerKeySetting\": 10,"
            + " \"negativeQueryNs\": 5.5},\n"
            + "  {\"name\": \"sieve-blocked-bloom\", \"n\": 1000000, \"bitsPerKeySetting\": 10,"
            + " \"negativeQueryNs\": 20.0, \"note\": \"a \\\"quoted\\\" \\u00e9\"},\n"
            + "  {\"name\": \"sieve-ribbon\", \"n\": 1000000, \"bitsPerKeySetting\": 16,"
            + " \"negativeQueryNs\": 99.0},\n"
            + "  {\"name\": \"sieve-ribbon\", \"n\": 1e6, \"bitsPerKeySetting\": 10,"
            + " \"negativeQueryNs\": 50.0, \"flags\": [true, false, null, -1.5e-3]}\n"
            + " ]}\n");
    CliRun run =
        CliRun.of("inspect", rocks.dir().toString(), "--json", "--cpu-from", report.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(
        run.out().contains("\"bloom_ns_per_probe\": 20, \"ribbon_ns_per_probe\": 50"), run.out());
    assertTrue(run.out().contains("report of 2026-12-03T10:00:00Z"), run.out());
    assertTrue(run.out().contains("at n=1000000 (ratio 2.50)"), run.out());
    // 'default' L1 (one Bloom file): 10^6 probes at 20 ns
    DbFilterReport.WhatIf w =
        DbFilterReport.whatIf(view, Double.NaN, null, new DbFilterReport.ProbeCost(20, 50, "test"))
            .get(0);
    assertEquals(1e6 * 20, w.policies().get(0).levels().get(1).probeNs(), 1e-3);
    assertEquals(1e6 * 50, w.policies().get(2).levels().get(1).probeNs(), 1e-3);

    Files.writeString(report, "{\"rows\": [{\"name\": \"sieve-ribbon\", \"n\": 1e6, ");
    CliRun bad = CliRun.of("inspect", rocks.dir().toString(), "--cpu-from", report.toString());
    assertEquals(1, bad.status());
    assertEquals(1, bad.err().lines().count(), bad.err());
    assertTrue(bad.err().contains("report JSON"), bad.err());
    Files.writeString(report, "{\"rows\": []}");
    bad = CliRun.of("inspect", rocks.dir().toString(), "--cpu-from", report.toString());
    assertEquals(1, bad.status());
    assertTrue(bad.err().contains("no timed row sieve-blocked-bloom"), bad.err());
  }
}
