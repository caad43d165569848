package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.sst.DbView;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database one of whose live SST files is missing or truncated: every key written must still
 * answer "maybe" (the unreadable file's keys are unknown), the per-file detail must say which file
 * could not be read, stderr must name it and the exit status must be 1.
 */
class UnreadableDatabaseFileTest {
  @TempDir static Path tmp;
  static TestDatabase.Db rocks;

  @BeforeAll
  static void writeDatabase() throws Exception {
    rocks = TestDatabase.create(tmp.resolve("db"), 3_200);
  }

  /** A copy of the database; then, per column family, its largest live file damaged. */
  private static List<String> damagedCopy(Path copy, boolean truncate) throws Exception {
    Files.createDirectories(copy);
    try (Stream<Path> s = Files.list(rocks.dir())) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        Files.copy(p, copy.resolve(p.getFileName()));
      }
    }
    Map<String, org.rocksdb.LiveFileMetaData> largest = new LinkedHashMap<>();
    for (org.rocksdb.LiveFileMetaData f : rocks.liveFiles()) {
      String cf = new String(f.columnFamilyName(), StandardCharsets.UTF_8);
      largest.merge(cf, f, (a, b) -> a.size() >= b.size() ? a : b);
    }
    List<String> damaged = new ArrayList<>();
    for (org.rocksdb.LiveFileMetaData f : largest.values()) {
      String name = f.fileName().substring(f.fileName().lastIndexOf('/') + 1);
      Path p = copy.resolve(name);
      if (truncate) {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
          ch.truncate(1_000);
        }
      } else {
        Files.delete(p);
      }
      damaged.add(name);
    }
    return damaged;
  }

  private static void everyWrittenKeyAnswersMaybe(Path db, List<String> damaged) {
    for (Map.Entry<String, TreeSet<String>> cf : rocks.keys().entrySet()) {
      List<String> args = new ArrayList<>(List.of("query", db.toString()));
      args.addAll(cf.getValue());
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertEquals(1, run.status(), run.err());
      assertEquals(damaged.size(), run.err().lines().count(), run.err());
      for (String name : damaged) {
        assertTrue(run.err().contains(name), run.err());
      }
      assertTrue(run.err().contains("answered maybe"), run.err());
      long lines = 0;
      for (String line : run.out().lines().toList()) {
        String[] f = line.split("\t");
        if (f[1].equals(cf.getKey())) {
          lines++;
          assertEquals("maybe", f[2], line);
        }
      }
      assertEquals(cf.getValue().size(), lines, "one line per key of column family " + cf.getKey());
    }
  }

  @Test
  void aDeletedSstLeavesEveryPresentKeyMaybe() throws Exception {
    Path copy = tmp.resolve("deleted");
    List<String> damaged = damagedCopy(copy, false);
    everyWrittenKeyAnswersMaybe(copy, damaged);
  }

  @Test
  void aTruncatedSstLeavesEveryPresentKeyMaybe() throws Exception {
    Path copy = tmp.resolve("truncated");
    List<String> damaged = damagedCopy(copy, true);
    everyWrittenKeyAnswersMaybe(copy, damaged);
  }

  @Test
  void theDetailNamesTheUnreadableFile() throws Exception {
    Path copy = tmp.resolve("detail");
    List<String> damaged = damagedCopy(copy, false);
    String key = rocks.keys().get("default").first();
    CliRun run = CliRun.of("query", copy.toString(), key);
    String line =
        run.out().lines().filter(l -> l.split("\t")[1].equals("default")).findFirst().orElseThrow();
    assertTrue(line.contains(damaged.get(0) + "=unreadable"), line);
  }

  @Test
  void anUnreadableTableAnswersMaybe() throws Exception {
    Path copy = tmp.resolve("table");
    List<String> damaged = damagedCopy(copy, true);
    DbView view = DbView.open(copy, 1, null);
    assertEquals(damaged.size(), view.errors().size());
    for (DbView.Table t : view.errors()) {
      assertFalse(t.readable());
      for (String k : rocks.keys().get(t.columnFamily().name())) {
        assertTrue(t.mayContain(k.getBytes(StandardCharsets.UTF_8)), k);
      }
    }
  }

  @Test
  void theLibraryViewProbesAnUnreadableFile() throws Exception {
    Path copy = tmp.resolve("library");
    List<String> damaged = damagedCopy(copy, false);
    DbView view = DbView.open(copy, 1, null);
    assertEquals(damaged.size(), view.errors().size());
    int unreadableProbed = 0;
    for (Map.Entry<String, TreeSet<String>> cf : rocks.keys().entrySet()) {
      int id =
          view.manifest().columnFamilies().values().stream()
              .filter(c -> c.name().equals(cf.getKey()))
              .findFirst()
              .orElseThrow()
              .id();
      for (String k : cf.getValue()) {
        byte[] key = k.getBytes(StandardCharsets.UTF_8);
        List<DbView.Table> probed = view.probeOrder(id, key);
        assertTrue(
            probed.stream().anyMatch(t -> t.sst() == null || t.sst().filter().mayContain(key)), k);
        unreadableProbed += probed.stream().anyMatch(t -> t.sst() == null) ? 1 : 0;
      }
    }
    assertTrue(unreadableProbed > 0, "the unreadable files are in the probe order");
  }
}
