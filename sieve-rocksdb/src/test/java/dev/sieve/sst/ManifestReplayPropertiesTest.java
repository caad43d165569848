package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Replaying any sequence of edits — column families added and dropped, files added, moved between
 * levels and deleted, edits of any size (records spanning 32 KiB blocks), plain or recyclable log
 * headers — gives exactly the live files and column families of a straightforward model.
 */
class ManifestReplayPropertiesTest {

  @Property(tries = 100)
  void replayMatchesTheModel(
      @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 120) int edits,
      @ForAll boolean recyclable) {
    Random rnd = new Random(seed);
    ManifestTest.Log log = new ManifestTest.Log(recyclable, rnd.nextInt());
    Map<Integer, String> cfs = new TreeMap<>(Map.of(0, "default"));
    Map<Long, String> files = new TreeMap<>(); // number -> "cf/level"
    int nextCf = 1;
    long nextFile = 1;
    for (int e = 0; e < edits; e++) {
      int op = rnd.nextInt(10);
      List<Integer> ids = new ArrayList<>(cfs.keySet());
      int cf = ids.get(rnd.nextInt(ids.size()));
      ManifestTest.Edit edit = new ManifestTest.Edit();
      if (op == 0) {
        int id = nextCf++;
        cfs.put(id, "cf" + id);
        edit.cf(id).addCf("cf" + id);
      } else if (op == 1 && cf != 0) {
        cfs.remove(cf);
        final int dropped = cf;
        files.values().removeIf(v -> v.startsWith(dropped + "/"));
        edit.cf(cf).dropCf();
      } else {
        // RocksDB writes the family tag after the files (EncodeTo); either order must replay
        boolean cfFirst = rnd.nextBoolean();
        if (cfFirst) {
          edit.cf(cf);
        }
        // delete or move some live files of this family, then add new ones
        for (Map.Entry<Long, String> f : new ArrayList<>(files.entrySet())) {
          String[] cl = f.getValue().split("/");
          if (Integer.parseInt(cl[0]) == cf && rnd.nextInt(3) == 0) {
            edit.deleteFile(Integer.parseInt(cl[1]), f.getKey());
            if (rnd.nextBoolean()) {
              int to = rnd.nextInt(7);
              edit.newFile4(to, f.getKey(), 100, "a", "b");
              files.put(f.getKey(), cf + "/" + to);
            } else {
              files.remove(f.getKey());
            }
          }
        }
        int adds = rnd.nextInt(rnd.nextInt(10) == 0 ? 900 : 4);
        for (int i = 0; i < adds; i++) {
          int level = rnd.nextInt(7);
          edit.newFile4(level, nextFile, 1000 + i, "k" + i, "k" + i + "z");
          files.put(nextFile++, cf + "/" + level);
        }
        if (!cfFirst) {
          edit.cf(cf);
        }
      }
      log.add(edit.bytes());
    }
    log.add(ManifestTest.required());
    Manifest m = Manifest.parse("MANIFEST-000009", log.bytes());
    Map<Integer, String> gotCfs = new TreeMap<>();
    m.columnFamilies().forEach((id, c) -> gotCfs.put(id, c.name()));
    assertEquals(cfs, gotCfs);
    Map<Long, String> got = new TreeMap<>();
    for (Manifest.LiveFile f : m.liveFiles()) {
      got.put(f.number(), f.columnFamily() + "/" + f.level());
    }
    assertEquals(files, got);
    assertEquals(edits + 1, m.edits()); // and the one with the required entries
  }
}
