package dev.sieve.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionOptions;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.TableProperties;
import org.rocksdb.WriteOptions;

/**
 * A real RocksDB database written with rocksdbjni for the database tests, the README's example and
 * the 10^6-key measurement: three column families — {@code default} (bloomfilter:10), {@code users}
 * (bloomfilter:16, partitioned filters) and {@code events} (ribbonfilter:10:1: Bloom for flushes
 * and L0, Ribbon from L1; rocksdbjni has no Ribbon class, so RocksDB's own options parser builds
 * the policy from its string) — each with files on L0 to L3: five batches of keys, the first
 * compacted into L3, the second into L2, the third into L1 (with {@code compactFiles}), the last
 * two flushed to L0. Automatic compactions are off, so the shape is deterministic.
 *
 * <p>Run as a program to keep a database: {@code TestDatabase DIR KEYS_PER_CF}.
 */
final class TestDatabase {
  static final String[] CFS = {"default", "users", "events"};

  /**
   * What RocksDB itself says about the database, captured before it is closed.
   *
   * @param dir the database directory
   * @param keys every key written, per column family
   * @param liveFiles RocksDB's live file metadata
   * @param tableProperties per column family, file path to RocksDB's table properties
   */
  record Db(
      Path dir,
      Map<String, TreeSet<String>> keys,
      List<LiveFileMetaData> liveFiles,
      Map<String, Map<String, TableProperties>> tableProperties) {}

  private TestDatabase() {}

  static String key(int i) {
    return String.format(Locale.ROOT, "key:%09d", i);
  }

  private static ColumnFamilyOptions options(String cf) throws RocksDBException {
    String table;
    switch (cf) {
      case "users":
        table =
            "filter_policy=bloomfilter:16;partition_filters=true;index_type=kTwoLevelIndexSearch;"
                + "metadata_block_size=1024";
        break;
      case "events":
        table = "filter_policy=ribbonfilter:10:1";
        break;
      default:
        table = "filter_policy=bloomfilter:10";
    }
    Properties props = new Properties();
    props.setProperty("block_based_table_factory", "{" + table + ";format_version=6}");
    props.setProperty("compression", "kNoCompression");
    props.setProperty("disable_auto_compactions", "true");
    props.setProperty("target_file_size_base", "262144");
    props.setProperty("write_buffer_size", "67108864");
    ColumnFamilyOptions o;
    try (ConfigOptions cfg = new ConfigOptions()) {
      o = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(cfg, props);
    }
    if (o == null) {
      throw new IllegalStateException("RocksDB rejected the options " + props);
    }
    return o;
  }

  /**
   * Writes the database: about {@code keysPerCf} keys in each column family, in five batches of
   * sizes 8:4:2:1:1 (L3, L2, L1, L0, L0), batch b holding the keys {@code 16·j + offset_b + cf}
   * (offsets 0, 8, 12, 14, 15): deeper levels span wider key ranges, all of them overlapping.
   */
  static Db create(Path dir, int keysPerCf) throws RocksDBException {
    RocksDB.loadLibrary();
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    for (String cf : CFS) {
      descriptors.add(new ColumnFamilyDescriptor(cf.getBytes(StandardCharsets.UTF_8), options(cf)));
    }
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    Map<String, TreeSet<String>> keys = new LinkedHashMap<>();
    Map<String, Map<String, TableProperties>> props = new HashMap<>();
    List<LiveFileMetaData> live;
    int[] share = {8, 4, 2, 1, 1};
    int[] target = {3, 2, 1, 0, 0};
    try (DBOptions dbo =
            new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
        RocksDB db = RocksDB.open(dbo, dir.toString(), descriptors, handles);
        WriteOptions wo = new WriteOptions().setDisableWAL(true);
        FlushOptions fo = new FlushOptions().setWaitForFlush(true);
        CompactionOptions co = new CompactionOptions().setOutputFileSizeLimit(256 << 10)) {
      byte[] value = new byte[16];
      for (int c = 0; c < CFS.length; c++) {
        TreeSet<String> written = new TreeSet<>();
        keys.put(CFS[c], written);
        ColumnFamilyHandle h = handles.get(c);
        int start = 0;
        for (int b = 0; b < share.length; b++) {
          int n = keysPerCf * share[b] / 16;
          for (int j = 0; j < n; j++) {
            String k = key(j * 16 + start + c);
            written.add(k);
            value[0] = (byte) b;
            db.put(h, wo, k.getBytes(StandardCharsets.UTF_8), value);
          }
          start += share[b];
          db.flush(fo, h);
          if (target[b] > 0) {
            List<String> l0 = new ArrayList<>();
            for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
              if (new String(f.columnFamilyName(), StandardCharsets.UTF_8).equals(CFS[c])
                  && f.level() == 0) {
                l0.add(f.fileName());
              }
            }
            db.compactFiles(co, h, l0, target[b], 0, null);
          }
        }
        props.put(CFS[c], db.getPropertiesOfAllTables(h));
      }
      live = db.getLiveFilesMetaData();
      for (ColumnFamilyHandle h : handles) {
        h.close(); // before the DB closes
      }
    } finally {
      for (ColumnFamilyDescriptor d : descriptors) {
        d.getOptions().close();
      }
    }
    return new Db(dir, keys, live, props);
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: TestDatabase DIR KEYS_PER_CF");
      System.exit(2);
    }
    long t = System.nanoTime();
    Db db = create(Path.of(args[0]), Integer.parseInt(args[1]));
    System.err.printf(
        Locale.ROOT,
        "wrote %s: %d live SST files, %d keys, in %.1f s%n",
        db.dir(),
        db.liveFiles().size(),
        db.keys().values().stream().mapToInt(TreeSet::size).sum(),
        (System.nanoTime() - t) / 1e9);
  }
}
