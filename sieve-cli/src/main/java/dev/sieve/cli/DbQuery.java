package dev.sieve.cli;

import dev.sieve.sst.DbView;
import dev.sieve.sst.Manifest;
import java.io.PrintWriter;
import java.util.Map;
import java.util.TreeMap;

/** {@code query DBDIR KEY...}: the answer of every filter a point lookup of a key probes. */
final class DbQuery {
  private DbQuery() {}

  /**
   * Prints, per key and column family, the files a point lookup probes and each filter's answer:
   * {@code KEY<TAB>CF<TAB>maybe|absent<TAB>L0:000012.sst=absent L1:000007.sst=maybe ...}; "maybe"
   * when any probed filter lets the key through. A file that could not be read is probed all the
   * same and answers {@code unreadable}, which counts as "maybe": its keys are unknown, and RocksDB
   * would read its data rather than skip it.
   *
   * @return whether the key may be present in some column family
   */
  static boolean query(PrintWriter out, DbView db, String keyText, byte[] key) {
    boolean anyFamily = false;
    Map<Integer, String> cfNames = new TreeMap<>();
    for (DbView.Table t : db.tables()) {
      cfNames.put(t.columnFamily().id(), t.columnFamily().name());
    }
    if (db.manifest() != null) {
      for (Manifest.ColumnFamily cf : db.manifest().columnFamilies().values()) {
        cfNames.put(cf.id(), cf.name());
      }
    }
    for (Map.Entry<Integer, String> cf : cfNames.entrySet()) {
      StringBuilder files = new StringBuilder();
      boolean any = false;
      for (DbView.Table t : db.probeOrder(cf.getKey(), key)) {
        boolean maybe = t.mayContain(key);
        any |= maybe;
        files
            .append(files.length() == 0 ? "" : " ")
            .append(DbCommands.levelName(t.level()))
            .append(':')
            .append(t.fileName())
            .append('=')
            .append(!t.readable() ? "unreadable" : maybe ? "maybe" : "absent");
      }
      out.print(keyText);
      out.print('\t');
      out.print(cf.getValue());
      out.print('\t');
      out.print(any ? "maybe" : "absent");
      out.print('\t');
      out.println(files.length() == 0 ? "(no file's key range holds the key)" : files);
      anyFamily |= any;
    }
    return anyFamily;
  }
}
