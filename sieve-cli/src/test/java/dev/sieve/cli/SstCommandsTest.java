package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.sst.SstFile;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.AbstractComparator;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ComparatorOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.EnvOptions;
import org.rocksdb.IndexType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.SstFileWriter;
import picocli.CommandLine;

/**
 * The CLI contract of {@code inspect}, {@code query} and {@code build} on SST files written by the
 * real RocksDB (rocksdbjni): output formats, JSON keys, exit codes 0 / 1 (bad file) / 2 (usage).
 */
class SstCommandsTest {
  @TempDir static Path dir;
  static Path bloomSst;
  static Path partitionedSst;
  static List<String> keys = new ArrayList<>();

  @BeforeAll
  static void writeTables() throws Exception {
    RocksDB.loadLibrary();
    for (int i = 0; i < 5000; i++) {
      keys.add(String.format("user:%06d", i * 2)); // odd numbers are absent
    }
    bloomSst = write("bloom.sst", false);
    partitionedSst = write("partitioned.sst", true);
  }

  private static Path write(String name, boolean partitioned) throws Exception {
    Path file = dir.resolve(name);
    BlockBasedTableConfig t = new BlockBasedTableConfig().setFilterPolicy(new BloomFilter(10));
    if (partitioned) {
      t.setPartitionFilters(true).setIndexType(IndexType.kTwoLevelIndexSearch);
      t.setMetadataBlockSize(512);
    }
    try (Options o = new Options().setTableFormatConfig(t);
        EnvOptions env = new EnvOptions();
        SstFileWriter w = new SstFileWriter(env, o)) {
      w.open(file.toString());
      for (String k : keys) {
        w.put(k.getBytes(StandardCharsets.UTF_8), new byte[] {1});
      }
      w.finish();
    }
    return file;
  }

  private static String[] run(String stdin, String... args) {
    return runBytes(stdin == null ? null : stdin.getBytes(StandardCharsets.UTF_8), args);
  }

  private static String[] runBytes(byte[] stdin, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new SieveCli());
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    InputStream saved = System.in;
    try {
      if (stdin != null) {
        System.setIn(new ByteArrayInputStream(stdin));
      }
      int status = cli.execute(args);
      return new String[] {Integer.toString(status), out.toString(), err.toString()};
    } finally {
      System.setIn(saved);
    }
  }

  @Test
  void inspectVerifyReachesEveryDataBlockOfACompressedTable() throws Exception {
    // RocksDB compresses the index blocks too: --verify decompresses them to reach the data blocks
    for (CompressionType c :
        new CompressionType[] {CompressionType.LZ4_COMPRESSION, CompressionType.ZSTD_COMPRESSION}) {
      for (boolean partitioned : new boolean[] {false, true}) {
        Path file = dir.resolve("verify-" + c.name() + "-" + partitioned + ".sst");
        BlockBasedTableConfig t =
            new BlockBasedTableConfig().setFilterPolicy(new BloomFilter(10)).setBlockSize(512);
        if (partitioned) {
          t.setPartitionFilters(true).setIndexType(IndexType.kTwoLevelIndexSearch);
          t.setMetadataBlockSize(256);
        }
        try (Options o = new Options().setTableFormatConfig(t).setCompressionType(c);
            EnvOptions env = new EnvOptions();
            SstFileWriter w = new SstFileWriter(env, o)) {
          w.open(file.toString());
          for (String k : keys) {
            w.put(
                k.getBytes(StandardCharsets.UTF_8),
                (k + "-value").getBytes(StandardCharsets.UTF_8));
          }
          w.finish();
        }
        long dataBlocks =
            SstFile.open(file).properties().number("rocksdb.num.data.blocks").getAsLong();
        String[] r = run(null, "inspect", file.toString(), "--verify", "--json");
        assertEquals("0", r[0], r[2]);
        assertTrue(dataBlocks > 20, "data blocks: " + dataBlocks);
        assertTrue(r[1].contains("\"verified_data_blocks\": " + dataBlocks + ","), c + " " + r[1]);
        assertTrue(r[1].contains("\"verify_note\": null"), c + " " + r[1]);
      }
    }
  }

  @Test
  void inspectJsonHasTheContractKeys() {
    String[] r = run(null, "inspect", bloomSst.toString(), "--json");
    assertEquals("0", r[0], r[2]);
    String json = r[1].trim();
    assertTrue(json.startsWith("{") && json.endsWith("}"), json);
    assertEquals(1, r[1].strip().lines().count(), "one JSON object on one line");
    assertTrue(json.contains("\"filter_kind\": \"fastlocalbloom\""), json);
    assertTrue(json.contains("\"num_entries\": 5000"), json);
    assertTrue(json.contains("\"num_probes\": 6"), json);
    assertTrue(json.contains("\"filter_bytes\": "), json);
    assertTrue(json.contains("\"bits_per_key\": "), json);
    assertTrue(json.contains("\"modelled_fpr\": 0.0"), json);
    assertTrue(json.contains("\"expected_fpr\": 0.0"), json); // from the bits: about 1%
    assertTrue(json.contains("\"format_version\": 7"), json);
    assertTrue(json.contains("\"checksum_type\": \"xxh3\""), json);
    assertFalse(json.contains("ribbon_seed"), json);
  }

  @Test
  void inspectReportsPartitionedFilters() {
    String[] r = run(null, "inspect", partitionedSst.toString());
    assertEquals("0", r[0], r[2]);
    assertTrue(r[1].contains("filter kind:") && r[1].contains("partitioned"), r[1]);
    assertTrue(r[1].contains("partition kind:") && r[1].contains("fastlocalbloom"), r[1]);
  }

  @Test
  void inspectSaysHowPartitionsAreLookedUp() throws Exception {
    String[] r = run(null, "inspect", partitionedSst.toString());
    assertTrue(r[1].contains("comparator:") && r[1].contains("leveldb.BytewiseComparator"), r[1]);
    assertTrue(r[1].contains("partition lookup:      one partition, by the comparator"), r[1]);

    // a comparator Sieve does not know (written here through a Java comparator): every partition
    // is asked, and inspect says so
    Path custom = dir.resolve("custom.sst");
    BlockBasedTableConfig t =
        new BlockBasedTableConfig()
            .setFilterPolicy(new BloomFilter(10))
            .setPartitionFilters(true)
            .setIndexType(IndexType.kTwoLevelIndexSearch)
            .setMetadataBlockSize(512);
    try (ComparatorOptions co = new ComparatorOptions();
        AbstractComparator cmp =
            new AbstractComparator(co) {
              @Override
              public String name() {
                return "sieve.test.AsciiOrder";
              }

              @Override
              public int compare(ByteBuffer a, ByteBuffer b) {
                return a.compareTo(b); // the keys are ASCII: signed order is bytewise order
              }
            };
        Options o = new Options().setTableFormatConfig(t).setComparator(cmp);
        EnvOptions env = new EnvOptions();
        SstFileWriter w = new SstFileWriter(env, o)) {
      w.open(custom.toString());
      for (String k : keys) {
        w.put(k.getBytes(StandardCharsets.UTF_8), new byte[] {1});
      }
      w.finish();
    }
    String[] c = run(null, "inspect", custom.toString());
    assertEquals("0", c[0], c[2]);
    assertTrue(c[1].contains("sieve.test.AsciiOrder"), c[1]);
    assertTrue(
        c[1].contains("partition lookup:      all partitions ORed (custom comparator)"), c[1]);
    assertTrue(c[1].contains("note:") && c[1].contains("custom comparator"), c[1]);
    String[] q = run(null, "query", custom.toString(), keys.get(17));
    assertEquals(keys.get(17) + "\tmaybe", q[1].strip());
  }

  @Test
  void queryAnswersLikeTheFilterForArgumentsAndStdin() throws Exception {
    SstFile sst = SstFile.open(bloomSst);
    String[] r = run(null, "query", bloomSst.toString(), "user:000002", "user:000003", "zzz");
    assertEquals("0", r[0], r[2]);
    List<String> lines = r[1].lines().toList();
    assertEquals("user:000002\tmaybe", lines.get(0));
    String absent =
        sst.filter().mayContain("user:000003".getBytes(StandardCharsets.UTF_8))
            ? "maybe"
            : "absent";
    assertEquals("user:000003\t" + absent, lines.get(1));
    assertEquals(3, lines.size());

    StringBuilder in = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      in.append(String.format("user:%06d", i)).append('\n');
    }
    String[] s = run(in.toString(), "query", partitionedSst.toString());
    assertEquals("0", s[0], s[2]);
    int absentCount = 0;
    SstFile part = SstFile.open(partitionedSst);
    List<String> out = s[1].lines().toList();
    assertEquals(2000, out.size());
    for (int i = 0; i < 2000; i++) {
      String key = String.format("user:%06d", i);
      boolean maybe = part.filter().mayContain(key.getBytes(StandardCharsets.UTF_8));
      assertEquals(key + "\t" + (maybe ? "maybe" : "absent"), out.get(i));
      if (i % 2 == 0) {
        assertTrue(maybe, key);
      } else if (!maybe) {
        absentCount++;
      }
    }
    // 1000 absent keys at 10 bits/key (model ~1%): far more than 900 must be rejected
    assertTrue(absentCount > 900, "rejected " + absentCount);

    String[] h = run(null, "query", "--hex", bloomSst.toString(), "757365723a303030303032");
    assertEquals("757365723a303030303032\tmaybe\n", h[1].replace("\r", ""));
  }

  /**
   * On stdin, a non-UTF-8 line is an error (decoded with replacement characters, query would answer
   * for another key), and so is an empty line unless --allow-empty-key.
   */
  @Test
  void queryStdinIsReadStrictly() {
    byte[] in = {'u', 's', 'e', 'r', '\n', 'x', (byte) 0xC3, '\n'};
    String[] r = runBytes(in, "query", bloomSst.toString());
    assertEquals("1", r[0], r[2]);
    assertEquals(1, r[1].lines().count(), "the first line was answered: " + r[1]);
    assertTrue(r[2].contains("line 2 is not UTF-8") && r[2].contains("--hex"), r[2]);
    String[] e = run("a\n\nb\n", "query", bloomSst.toString());
    assertEquals("1", e[0], e[2]);
    assertTrue(e[2].contains("line 2 is empty"), e[2]);
    String[] ok = run("a\n\nb\n", "query", "--allow-empty-key", bloomSst.toString());
    assertEquals("0", ok[0], ok[2]);
    assertEquals(3, ok[1].lines().count(), ok[1]);
  }

  @Test
  void buildWritesTheBlockInTheFile() throws Exception {
    Path keyFile = dir.resolve("keys.txt");
    Files.write(keyFile, keys, StandardCharsets.UTF_8);
    Path out = dir.resolve("filter.bin");
    String[] r =
        run(
            null,
            "build",
            "--keys",
            keyFile.toString(),
            "--policy",
            "bloom:10",
            "-o",
            out.toString());
    assertEquals("0", r[0], r[2]);
    assertArrayEquals(SstFile.open(bloomSst).filter().fullBlock().bytes(), Files.readAllBytes(out));
    Path ribbon = dir.resolve("ribbon.bin");
    assertEquals(
        "0",
        run(
            null,
            "build",
            "--keys",
            keyFile.toString(),
            "--policy",
            "ribbon:10",
            "-o",
            ribbon.toString())[0]);
    byte[] rb = Files.readAllBytes(ribbon);
    assertEquals((byte) 0xFE, rb[rb.length - 5], "Ribbon marker");
  }

  @Test
  void buildFollowsOptimizeFiltersForMemory() throws Exception {
    // 1,000 keys at 10 bits/key: RocksDB's default picks 7 probes from the allocated size, 6
    // without
    List<String> k = keys.subList(0, 1000);
    Path keyFile = dir.resolve("k1000.txt");
    Files.write(keyFile, k, StandardCharsets.UTF_8);
    Path sst = dir.resolve("k1000.sst");
    try (Options o =
            new Options()
                .setTableFormatConfig(
                    new BlockBasedTableConfig().setFilterPolicy(new BloomFilter(10)));
        EnvOptions env = new EnvOptions();
        SstFileWriter w = new SstFileWriter(env, o)) {
      w.open(sst.toString());
      for (String s : k) {
        w.put(s.getBytes(StandardCharsets.UTF_8), new byte[] {1});
      }
      w.finish();
    }
    byte[] rocks = SstFile.open(sst).filter().fullBlock().bytes();
    assertEquals(7, rocks[rocks.length - 3]);
    Path dflt = dir.resolve("dflt.bin");
    String[] r =
        run(
            null,
            "build",
            "--keys",
            keyFile.toString(),
            "--policy",
            "bloom:10",
            "-o",
            dflt.toString());
    assertEquals("0", r[0], r[2]);
    assertTrue(r[1].contains("optimize_filters_for_memory=true"), r[1]);
    assertArrayEquals(rocks, Files.readAllBytes(dflt));
    Path off = dir.resolve("off.bin");
    r =
        run(
            null,
            "build",
            "--keys",
            keyFile.toString(),
            "--policy",
            "bloom:10",
            "--optimize-filters-for-memory=false",
            "-o",
            off.toString());
    assertEquals("0", r[0], r[2]);
    byte[] o = Files.readAllBytes(off);
    assertEquals(rocks.length, o.length);
    assertEquals(6, o[o.length - 3]);
    assertEquals(
        "2",
        run(
            null,
            "build",
            "--keys",
            keyFile.toString(),
            "--policy",
            "bloom:10",
            "--optimize-filters-for-memory=maybe",
            "-o",
            off.toString())[0]);
  }

  @Test
  void buildWritesPrefixAndPartitionedFiltersAsRocksDb() throws Exception {
    Path keyFile = dir.resolve("keys-p.txt");
    Files.write(keyFile, keys, StandardCharsets.UTF_8);
    // RocksDB: Bloom 10 bits/key, its defaults otherwise, fixed 6-byte prefixes, partitions
    Path sst = dir.resolve("prefix-partitioned.sst");
    BlockBasedTableConfig t =
        new BlockBasedTableConfig()
            .setFilterPolicy(new BloomFilter(10))
            .setPartitionFilters(true)
            .setIndexType(IndexType.kTwoLevelIndexSearch)
            .setMetadataBlockSize(700);
    try (Options o = new Options().setTableFormatConfig(t).useFixedLengthPrefixExtractor(6);
        EnvOptions env = new EnvOptions();
        SstFileWriter w = new SstFileWriter(env, o)) {
      w.open(sst.toString());
      for (String k : keys) {
        w.put(k.getBytes(StandardCharsets.UTF_8), new byte[] {1});
      }
      w.finish();
    }
    List<dev.sieve.sst.SstFilter.Partition> rocks = SstFile.open(sst).filter().partitions();
    Path out = dir.resolve("parts");
    String[] r =
        run(
            null,
            "build",
            "--keys",
            keyFile.toString(),
            "--policy",
            "bloom:10",
            "--prefix",
            "fixed:6",
            "--partition-size",
            "700",
            "-o",
            out.toString());
    assertEquals("0", r[0], r[2]);
    assertTrue(r[1].contains(rocks.size() + " partitions"), r[1]);
    List<String> index = Files.readAllLines(out.resolve("index.tsv"));
    assertEquals(rocks.size(), index.size());
    for (int i = 0; i < rocks.size(); i++) {
      String[] cols = index.get(i).split("\t");
      assertEquals(String.format("partition-%05d.block", i), cols[0]);
      assertEquals(
          java.util.HexFormat.of().formatHex(rocks.get(i).separatorUserKey()), cols[1], "sep " + i);
      assertArrayEquals(rocks.get(i).block().bytes(), Files.readAllBytes(out.resolve(cols[0])));
      assertEquals(rocks.get(i).block().blockBytes(), Integer.parseInt(cols[2]));
    }

    // a full prefix-only filter
    Path full = dir.resolve("prefix-only.sst");
    try (Options o =
            new Options()
                .setTableFormatConfig(
                    new BlockBasedTableConfig()
                        .setFilterPolicy(new BloomFilter(10))
                        .setWholeKeyFiltering(false))
                .useCappedPrefixExtractor(8);
        EnvOptions env = new EnvOptions();
        SstFileWriter w = new SstFileWriter(env, o)) {
      w.open(full.toString());
      for (String k : keys) {
        w.put(k.getBytes(StandardCharsets.UTF_8), new byte[] {1});
      }
      w.finish();
    }
    Path block = dir.resolve("prefix-only.block");
    r =
        run(
            null,
            "build",
            "--keys",
            keyFile.toString(),
            "--policy",
            "bloom:10",
            "--prefix",
            "capped:8",
            "--whole-key-filtering=false",
            "-o",
            block.toString());
    assertEquals("0", r[0], r[2]);
    assertArrayEquals(SstFile.open(full).filter().fullBlock().bytes(), Files.readAllBytes(block));

    String k = keyFile.toString();
    String[][] usage = {
      {"--prefix", "fixed:0"},
      {"--prefix", "middle:3"},
      {"--whole-key-filtering=false"},
      {"--prefix", "fixed:3", "--format-version", "4"},
      {"--partition-size", "0"},
      {"--partition-size", "512", "-o", block.toString()},
    };
    for (String[] extra : usage) {
      List<String> args = new ArrayList<>(List.of("build", "--keys", k, "--policy", "bloom:10"));
      args.addAll(List.of(extra));
      if (!args.contains("-o")) {
        args.addAll(List.of("-o", dir.resolve("never").toString()));
      }
      CliRun u = CliRun.of(args.toArray(new String[0]));
      assertEquals(2, u.status(), String.join(" ", extra) + ": " + u.err());
      assertEquals(1, u.err().strip().lines().count(), u.err());
    }
  }

  @Test
  void exitCodesFollowTheContract() throws Exception {
    Path junk = dir.resolve("junk.sst");
    Files.write(junk, new byte[100]);
    String[] r = run(null, "inspect", junk.toString());
    assertEquals("1", r[0]);
    assertEquals(1, r[2].strip().lines().count(), r[2]);
    assertTrue(r[2].contains("magic"), r[2]);
    assertEquals("1", run(null, "query", dir.resolve("missing.sst").toString(), "k")[0]);
    byte[] corrupt = Files.readAllBytes(bloomSst);
    corrupt[corrupt.length - 30] ^= 0x10; // inside the format_version 7 footer
    Path bad = dir.resolve("bad.sst");
    Files.write(bad, corrupt);
    String[] c = run(null, "inspect", "--json", bad.toString());
    assertEquals("1", c[0]);
    assertTrue(c[2].contains("checksum"), c[2]);

    assertEquals("2", run(null, "inspect")[0]);
    assertEquals("2", run(null, "inspect", "--no-such-flag", bloomSst.toString())[0]);
    assertEquals("2", run(null, "query", "--hex", bloomSst.toString(), "xyz")[0]);
    Path keyFile = dir.resolve("k2.txt");
    Files.write(keyFile, List.of("a", "b"));
    assertEquals(
        "2",
        run(
            null,
            "build",
            "--keys",
            keyFile.toString(),
            "--policy",
            "cuckoo:3",
            "-o",
            dir.resolve("x").toString())[0]);
    assertEquals("2", run(null, "build", "--keys", keyFile.toString(), "-o", "x")[0]);
    assertEquals(
        "1",
        run(
            null,
            "build",
            "--keys",
            dir.resolve("nope").toString(),
            "--policy",
            "bloom:10",
            "-o",
            dir.resolve("x").toString())[0]);
  }
}
