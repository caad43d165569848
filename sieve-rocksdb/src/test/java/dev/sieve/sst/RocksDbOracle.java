package dev.sieve.sst;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.TreeSet;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.BuiltinComparator;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.EnvOptions;
import org.rocksdb.IndexType;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileWriter;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * The real RocksDB (rocksdbjni) as the test oracle: writes SST files with {@link SstFileWriter} and
 * asks a DB that ingested them whether its filter rejects a key (the {@code BLOOM_FILTER_USEFUL}
 * ticker, or {@code BLOOM_FILTER_PREFIX_USEFUL} for prefix-only filters, rises by one for each
 * point lookup the filter answered "absent").
 */
final class RocksDbOracle {
  static {
    RocksDB.loadLibrary();
  }

  private RocksDbOracle() {}

  /** How a test table is written. */
  record Spec(
      boolean ribbon,
      double bitsPerKey,
      int formatVersion,
      org.rocksdb.ChecksumType checksum,
      boolean partitioned,
      long metadataBlockSize,
      boolean wholeKey,
      int fixedPrefix,
      boolean optimizeForMemory,
      boolean reverseComparator) {

    static Spec bloom(double bits) {
      return new Spec(
          false, bits, 7, org.rocksdb.ChecksumType.kXXH3, false, 4096, true, 0, false, false);
    }

    static Spec ribbon(double bits, boolean optimizeForMemory) {
      return new Spec(
          true,
          bits,
          7,
          org.rocksdb.ChecksumType.kXXH3,
          false,
          4096,
          true,
          0,
          optimizeForMemory,
          false);
    }

    Spec formatVersion(int v) {
      return new Spec(
          ribbon,
          bitsPerKey,
          v,
          checksum,
          partitioned,
          metadataBlockSize,
          wholeKey,
          fixedPrefix,
          optimizeForMemory,
          reverseComparator);
    }

    Spec checksum(org.rocksdb.ChecksumType c) {
      return new Spec(
          ribbon,
          bitsPerKey,
          formatVersion,
          c,
          partitioned,
          metadataBlockSize,
          wholeKey,
          fixedPrefix,
          optimizeForMemory,
          reverseComparator);
    }

    Spec partitioned(long blockSize) {
      return new Spec(
          ribbon,
          bitsPerKey,
          formatVersion,
          checksum,
          true,
          blockSize,
          wholeKey,
          fixedPrefix,
          optimizeForMemory,
          reverseComparator);
    }

    Spec prefix(int len, boolean wholeKeyToo) {
      return new Spec(
          ribbon,
          bitsPerKey,
          formatVersion,
          checksum,
          partitioned,
          metadataBlockSize,
          wholeKeyToo,
          len,
          optimizeForMemory,
          reverseComparator);
    }

    Spec optimizeForMemory(boolean on) {
      return new Spec(
          ribbon,
          bitsPerKey,
          formatVersion,
          checksum,
          partitioned,
          metadataBlockSize,
          wholeKey,
          fixedPrefix,
          on,
          reverseComparator);
    }

    /** Tables ordered by RocksDB's built-in reverse bytewise comparator. */
    Spec reversed() {
      return new Spec(
          ribbon,
          bitsPerKey,
          formatVersion,
          checksum,
          partitioned,
          metadataBlockSize,
          wholeKey,
          fixedPrefix,
          optimizeForMemory,
          true);
    }

    /** {@code keys} (sorted bytewise) in the order this spec's comparator sorts them. */
    List<byte[]> inTableOrder(List<byte[]> keys) {
      if (!reverseComparator) {
        return keys;
      }
      List<byte[]> r = new ArrayList<>(keys);
      Collections.reverse(r);
      return r;
    }

    private String checksumName() {
      switch (checksum) {
        case kNoChecksum:
          return "kNoChecksum";
        case kCRC32c:
          return "kCRC32c";
        case kxxHash:
          return "kxxHash";
        case kxxHash64:
          return "kxxHash64";
        default:
          return "kXXH3";
      }
    }

    /** Options for a writer or a DB that write/read tables like this. */
    Options options() throws RocksDBException {
      Options options;
      if (ribbon) {
        // the Java binding has no Ribbon class: RocksDB's own options parser builds the policy
        Properties props = new Properties();
        StringBuilder t = new StringBuilder("{filter_policy=ribbonfilter:");
        t.append(bitsPerKey)
            .append(";optimize_filters_for_memory=")
            .append(optimizeForMemory)
            .append(";format_version=")
            .append(formatVersion)
            .append(";checksum=")
            .append(checksumName())
            .append(";whole_key_filtering=")
            .append(wholeKey);
        if (partitioned) {
          t.append(";partition_filters=true;index_type=kTwoLevelIndexSearch;metadata_block_size=")
              .append(metadataBlockSize);
        }
        t.append("}");
        props.setProperty("block_based_table_factory", t.toString());
        if (fixedPrefix > 0) {
          props.setProperty("prefix_extractor", "rocksdb.FixedPrefix." + fixedPrefix);
        }
        ColumnFamilyOptions cf;
        try (ConfigOptions cfg = new ConfigOptions()) {
          cf = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(cfg, props);
        }
        if (cf == null) {
          throw new IllegalStateException("RocksDB rejected the options " + props);
        }
        if (reverseComparator) {
          cf.setComparator(BuiltinComparator.REVERSE_BYTEWISE_COMPARATOR);
        }
        options = new Options(new DBOptions(), cf);
      } else {
        options = new Options();
        BlockBasedTableConfig t = new BlockBasedTableConfig();
        t.setFilterPolicy(new BloomFilter(bitsPerKey));
        t.setFormatVersion(formatVersion);
        t.setChecksumType(checksum);
        t.setWholeKeyFiltering(wholeKey);
        t.setOptimizeFiltersForMemory(optimizeForMemory);
        if (partitioned) {
          t.setPartitionFilters(true);
          t.setIndexType(IndexType.kTwoLevelIndexSearch);
          t.setMetadataBlockSize(metadataBlockSize);
        }
        options.setTableFormatConfig(t);
        if (reverseComparator) {
          options.setComparator(BuiltinComparator.REVERSE_BYTEWISE_COMPARATOR);
        }
        if (fixedPrefix > 0) {
          options.useFixedLengthPrefixExtractor(fixedPrefix);
        }
      }
      options.setCreateIfMissing(true);
      return options;
    }
  }

  /**
   * Writes {@code keys} (distinct, sorted bytewise; written in the spec's comparator order) to a
   * new SST file under {@code dir}.
   */
  static Path writeSst(Path dir, String name, List<byte[]> keys, Spec spec) throws Exception {
    Path file = dir.resolve(name + ".sst");
    try (Options options = spec.options();
        EnvOptions env = new EnvOptions();
        SstFileWriter w = new SstFileWriter(env, options)) {
      w.open(file.toString());
      byte[] value = {1};
      for (byte[] k : spec.inTableOrder(keys)) {
        w.put(k, value);
      }
      w.finish();
    }
    return file;
  }

  /**
   * Ingests a copy of {@code sst} into a fresh DB under {@code dir} opened with the same options
   * and asks RocksDB, one point lookup at a time, whether its filter rejects each key.
   *
   * @return for each key, {@code true} where RocksDB's filter said "absent"
   */
  static boolean[] rocksDbRejects(Path dir, Path sst, Spec spec, List<byte[]> keys)
      throws Exception {
    Path dbDir = Files.createTempDirectory(dir, "db");
    boolean[] rejected = new boolean[keys.size()];
    try (Statistics stats = new Statistics();
        Options options = spec.options().setStatistics(stats);
        RocksDB db = RocksDB.open(options, dbDir.toString());
        IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
      ingest.setMoveFiles(false);
      db.ingestExternalFile(List.of(sst.toString()), ingest);
      long before = useful(stats);
      for (int i = 0; i < keys.size(); i++) {
        byte[] v = db.get(keys.get(i));
        long after = useful(stats);
        rejected[i] = after > before;
        if (rejected[i] && v != null) {
          throw new AssertionError("RocksDB's filter rejected a key that the DB holds");
        }
        before = after;
      }
    }
    return rejected;
  }

  /**
   * Point lookups the filter rejected: {@code BLOOM_FILTER_USEFUL} for whole-key filters, {@code
   * BLOOM_FILTER_PREFIX_USEFUL} where RocksDB asked a prefix-only filter for the key's prefix.
   */
  private static long useful(Statistics stats) {
    return stats.getTickerCount(TickerType.BLOOM_FILTER_USEFUL)
        + stats.getTickerCount(TickerType.BLOOM_FILTER_PREFIX_USEFUL);
  }

  /**
   * Asserts that RocksDB's block equals Sieve's build, allowing where {@code optimizeForMemory} the
   * one difference the heap's state decides: a Ribbon block one 16-byte segment longer (glibc
   * handed out a chunk 16 bytes larger than asked for), with the same seed and number of blocks.
   *
   * @return whether RocksDB's block was such a grown Ribbon block
   */
  static boolean assertSameBlock(
      byte[] sieve, FilterBlock rocks, boolean optimizeForMemory, String label) {
    byte[] r = rocks.bytes();
    if (optimizeForMemory && rocks.kind() == FilterKind.RIBBON && r.length == sieve.length + 16) {
      org.junit.jupiter.api.Assertions.assertArrayEquals(
          Arrays.copyOfRange(sieve, sieve.length - 5, sieve.length),
          Arrays.copyOfRange(r, r.length - 5, r.length),
          label);
      return true;
    }
    org.junit.jupiter.api.Assertions.assertArrayEquals(r, sieve, label);
    return false;
  }

  // ---------------------------------------------------------------- key sets

  /** {@code n} distinct random keys, sorted bytewise: random bytes or text, lengths 0..maxLen. */
  static List<byte[]> randomKeys(Random rnd, int n, boolean text, int maxLen) {
    TreeSet<byte[]> set = new TreeSet<>(Arrays::compareUnsigned);
    int attempts = 0;
    while (set.size() < n) {
      int len = rnd.nextInt(maxLen + 1);
      if (attempts++ > 4 * n + 1000) {
        len = Math.min(maxLen, 8 + rnd.nextInt(Math.max(1, maxLen - 7))); // short ones run out
      }
      set.add(randomKey(rnd, len, text));
    }
    return new ArrayList<>(set);
  }

  static byte[] randomKey(Random rnd, int len, boolean text) {
    if (text) {
      String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-/:.äöü€";
      StringBuilder sb = new StringBuilder();
      int bytes = 0;
      while (bytes < len) {
        char c = alphabet.charAt(rnd.nextInt(alphabet.length()));
        sb.append(c);
        bytes += String.valueOf(c).getBytes(StandardCharsets.UTF_8).length;
      }
      return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
    byte[] k = new byte[len];
    rnd.nextBytes(k);
    return k;
  }

  /**
   * Up to {@code n} keys not in {@code sorted} that lie strictly inside its key range (outside it
   * RocksDB never consults the filter): stored keys with bytes appended or changed, or fresh keys.
   */
  static List<byte[]> absentKeysInRange(Random rnd, List<byte[]> sorted, int n, boolean text) {
    List<byte[]> out = new ArrayList<>();
    if (sorted.size() < 2) {
      return out;
    }
    TreeSet<byte[]> set = new TreeSet<>(Arrays::compareUnsigned);
    set.addAll(sorted);
    byte[] first = sorted.get(0);
    byte[] last = sorted.get(sorted.size() - 1);
    TreeSet<byte[]> chosen = new TreeSet<>(Arrays::compareUnsigned);
    for (int tries = 0; chosen.size() < n && tries < 20 * n; tries++) {
      byte[] base = sorted.get(rnd.nextInt(sorted.size()));
      byte[] k;
      int mode = rnd.nextInt(3);
      if (mode == 0 || base.length == 0) {
        k = Arrays.copyOf(base, base.length + 1 + rnd.nextInt(4));
        for (int i = base.length; i < k.length; i++) {
          k[i] = text ? (byte) ('a' + rnd.nextInt(26)) : (byte) rnd.nextInt(256);
        }
      } else if (mode == 1) {
        k = base.clone();
        k[rnd.nextInt(k.length)] = text ? (byte) ('a' + rnd.nextInt(26)) : (byte) rnd.nextInt(256);
      } else {
        k = randomKey(rnd, Math.max(1, base.length), text);
      }
      if (Arrays.compareUnsigned(k, first) > 0
          && Arrays.compareUnsigned(k, last) < 0
          && !set.contains(k)) {
        chosen.add(k);
      }
    }
    out.addAll(chosen);
    Collections.shuffle(out, rnd);
    return out;
  }
}
