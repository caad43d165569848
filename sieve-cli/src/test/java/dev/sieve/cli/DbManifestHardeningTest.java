package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import dev.sieve.sst.DbFilterReport;
import dev.sieve.sst.DbView;
import dev.sieve.sst.IncompleteManifestException;
import dev.sieve.sst.Manifest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteOptions;

/**
 * MANIFEST reading on real databases written by rocksdbjni: a MANIFEST cut short is refused as
 * RocksDB refuses it, at every truncation length; a CURRENT naming a missing MANIFEST names it; and
 * a column family whose only filter is a 1-key flush gets its what-if bits/key from the OPTIONS
 * file, not the 512 bits of that filter's one cache line.
 */
class DbManifestHardeningTest {
  static final String[] CFS = {"default", "users", "events"};

  private static ColumnFamilyOptions options(String cf) throws Exception {
    String policy =
        cf.equals("users")
            ? "bloomfilter:16"
            : cf.equals("events") ? "ribbonfilter:10:1" : "bloomfilter:10";
    Properties props = new Properties();
    props.setProperty(
        "block_based_table_factory", "{filter_policy=" + policy + ";format_version=6}");
    props.setProperty("compression", "kNoCompression");
    props.setProperty("disable_auto_compactions", "true");
    try (ConfigOptions cfg = new ConfigOptions()) {
      return ColumnFamilyOptions.getColumnFamilyOptionsFromProps(cfg, props);
    }
  }

  /** Writes {@code keysPerFlush} keys to every column family, {@code flushes} times. */
  static void write(Path dir, int flushes, int keysPerFlush) throws Exception {
    RocksDB.loadLibrary();
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    for (String cf : CFS) {
      descriptors.add(new ColumnFamilyDescriptor(cf.getBytes(StandardCharsets.UTF_8), options(cf)));
    }
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (DBOptions dbo =
            new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
        RocksDB db = RocksDB.open(dbo, dir.toString(), descriptors, handles);
        WriteOptions wo = new WriteOptions();
        FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
      int k = 0;
      for (int f = 0; f < flushes; f++) {
        for (ColumnFamilyHandle h : handles) {
          for (int i = 0; i < keysPerFlush; i++) {
            db.put(h, wo, ("key:" + k++).getBytes(StandardCharsets.UTF_8), new byte[8]);
          }
          db.flush(fo, h);
        }
      }
      for (ColumnFamilyHandle h : handles) {
        h.close();
      }
    } finally {
      for (ColumnFamilyDescriptor d : descriptors) {
        d.getOptions().close();
      }
    }
  }

  /** Opens and closes the database once more: RocksDB then writes a fresh MANIFEST. */
  static void reopen(Path dir) throws Exception {
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    for (String cf : CFS) {
      descriptors.add(new ColumnFamilyDescriptor(cf.getBytes(StandardCharsets.UTF_8), options(cf)));
    }
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (DBOptions dbo = new DBOptions();
        RocksDB db = RocksDB.open(dbo, dir.toString(), descriptors, handles)) {
      for (ColumnFamilyHandle h : handles) {
        h.close();
      }
    } finally {
      for (ColumnFamilyDescriptor d : descriptors) {
        d.getOptions().close();
      }
    }
  }

  private static Path manifestOf(Path dir) throws Exception {
    String name = Files.readString(dir.resolve("CURRENT")).trim();
    return dir.resolve(name);
  }

  private static Set<String> sstFiles(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".sst"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  private static Set<String> live(Manifest m) {
    return m.liveFiles().stream()
        .map(Manifest.LiveFile::fileName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** The MANIFEST cut after its first record is refused, by the library and the CLI. */
  @Test
  void aManifestCutAfterItsFirstRecordIsRefused(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("db");
    write(dir, 3, 50);
    Set<String> ssts = sstFiles(dir);
    assertEquals(9, ssts.size(), ssts.toString());
    assertEquals(ssts, live(Manifest.read(dir)));
    Path manifest = manifestOf(dir);
    byte[] whole = Files.readAllBytes(manifest);
    // the log's first physical record: 4 bytes CRC, 2 bytes length, 1 byte type (1 = FULL)
    assertEquals(1, whole[6]);
    int firstRecordEnd = 7 + ((whole[4] & 0xFF) | (whole[5] & 0xFF) << 8);
    Files.write(manifest, Arrays.copyOf(whole, firstRecordEnd));

    IncompleteManifestException e =
        assertThrows(IncompleteManifestException.class, () -> Manifest.read(dir));
    assertTrue(
        e.getMessage().contains("no log_file_number, next_file_number, last_sequence entry in"),
        e.getMessage());
    assertEquals(
        List.of("log_file_number", "next_file_number", "last_sequence"), e.missingEntries());

    for (String command : new String[] {"inspect", "query"}) {
      CliRun run =
          command.equals("inspect")
              ? CliRun.of("inspect", dir.toString())
              : CliRun.of("query", dir.toString(), "key:1");
      assertNotEquals(0, run.status(), command + ": " + run.out());
      assertEquals(1, run.err().lines().count(), run.err());
      assertTrue(run.err().contains("no log_file_number"), run.err());
      assertTrue(!run.out().contains("0 live SST"), run.out());
    }
  }

  /**
   * Every truncation length of a MANIFEST (RocksDB's fresh one after a reopen: the snapshot of the
   * live files, then the edit with the required entries) reads the full live set or is refused with
   * a typed error; none reads as a smaller or empty database.
   */
  @Test
  void everyTruncationReadsTheFullLiveSetOrIsRefused(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("db");
    write(dir, 3, 20);
    reopen(dir);
    Set<String> full = live(Manifest.read(dir));
    assertEquals(sstFiles(dir), full);
    Path manifest = manifestOf(dir);
    byte[] whole = Files.readAllBytes(manifest);
    int refused = 0;
    for (int len = 0; len < whole.length; len++) {
      Files.write(manifest, Arrays.copyOf(whole, len));
      try {
        Manifest m = Manifest.read(dir);
        assertEquals(full, live(m), "MANIFEST cut to " + len + " of " + whole.length + " bytes");
      } catch (SieveFormatException expected) {
        refused++;
      }
    }
    assertTrue(refused > 0, "some truncation must be refused");
  }

  /** A CURRENT naming a missing MANIFEST names that MANIFEST. */
  @Test
  void aMissingManifestIsNamed(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("db");
    write(dir, 1, 5);
    Files.writeString(dir.resolve("CURRENT"), "MANIFEST-000999\n");
    NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> Manifest.read(dir));
    assertEquals(dir.resolve("MANIFEST-000999").toString(), e.getFile());
    CliRun run = CliRun.of("inspect", dir.toString());
    assertNotEquals(0, run.status());
    assertEquals(1, run.err().lines().count(), run.err());
    assertTrue(run.err().contains("MANIFEST-000999"), run.err());
  }

  /**
   * One key put and flushed per column family. Each filter is one 64-byte line for one key (512
   * bits/key); the what-if takes the bits/key from the OPTIONS file's filter policy (10, 16 and 10)
   * instead.
   */
  @Test
  void aOneKeyFlushDoesNotSetTheWhatIfBitsPerKey(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("db");
    write(dir, 1, 1);
    DbView view = DbView.open(dir, 1, null);
    List<DbFilterReport.WhatIf> whatIf = DbFilterReport.whatIf(view, Double.NaN, null);
    assertEquals(3, whatIf.size());
    for (DbFilterReport.WhatIf w : whatIf) {
      double expected = w.name().equals("users") ? 16 : 10;
      assertEquals(expected, w.bitsPerKey(), 1e-9, w.name() + ": " + w);
      assertTrue(w.bitsPerKeySource().contains("OPTIONS"), w.bitsPerKeySource());
    }
    CliRun run = CliRun.of("inspect", dir.toString(), "--json");
    assertEquals(0, run.status(), run.err());
    // the levels' rows keep the filters' real 512 bits/key; the what-if uses the setting
    assertTrue(!run.out().contains("\"what_if\": {\"bits_per_key\": 512"), run.out());
    assertTrue(run.out().contains("\"what_if\": {\"bits_per_key\": 16,"), run.out());
    assertTrue(run.out().contains("ribbonfilter:10:1"), run.out());
  }

  /**
   * The same without an OPTIONS file: the what-if then weighs the Bloom filters by their keys (a
   * 2,000-key flush and a 1-key flush give about the setting, not the mean of 10 and 512 per file)
   * and RocksDB's clamp caps a column family whose only filter is a 1-key flush at 100 bits/key.
   */
  @Test
  void withoutOptionsTheWhatIfWeighsByKeysAndClamps(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("db");
    write(dir, 1, 2000);
    write(dir, 1, 1);
    Path lone = tmp.resolve("lone");
    write(lone, 1, 1);
    for (Path d : List.of(dir, lone)) {
      try (Stream<Path> s = Files.list(d)) {
        for (Path p : s.filter(p -> p.getFileName().toString().startsWith("OPTIONS")).toList()) {
          Files.delete(p);
        }
      }
    }
    for (DbFilterReport.WhatIf w :
        DbFilterReport.whatIf(DbView.open(dir, 1, null), Double.NaN, null)) {
      assertTrue(!w.bitsPerKeySource().contains("OPTIONS"), w.bitsPerKeySource());
      double setting = w.name().equals("users") ? 16 : 10;
      // a per-file mean would give (10 + 512) / 2 = 261; the key-weighted figure is the setting
      // within RocksDB's rounding of filter sizes and optimize_filters_for_memory
      assertEquals(setting, w.bitsPerKey(), 1.5, w.name() + ": " + w);
    }
    for (DbFilterReport.WhatIf w :
        DbFilterReport.whatIf(DbView.open(lone, 1, null), Double.NaN, null)) {
      // every column family flushed to L0, where ribbonfilter:10:1 also writes Bloom filters
      assertEquals(100, w.bitsPerKey(), 1e-9, w.name() + " is clamped as RocksDB clamps: " + w);
    }
  }
}
