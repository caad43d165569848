package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.format.MappedSieveFile;
import dev.sieve.format.SieveFormat;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One writer with concurrent readers, and concurrent writers ({@link ExpandableFilter}'s
 * "Threads"): while one thread adds keys through many doublings and then removes half of them
 * (shifting entries in place), compacts and re-fits the table and grows it again, two readers (one
 * key at a time, and 64 at a time by the batch form) query keys whose add returned before the query
 * began, and keys that are never removed: not one false negative. Two writers adding disjoint keys
 * at once end with every key present and the exact count.
 */
class ExpandableConcurrencyTest {
  static final int KEYS = 200_000;

  @Test
  void readersNeverMissAKeyWhileOneWriterGrowsAndRemoves() throws InterruptedException {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    AtomicLong published = new AtomicLong(); // keys [0, published) have been added
    AtomicBoolean done = new AtomicBoolean();
    AtomicLong misses = new AtomicLong();
    AtomicLong queries = new AtomicLong();
    Thread[] readers = new Thread[2];
    for (int t = 0; t < readers.length; t++) {
      SplittableRandom rnd = new SplittableRandom(t);
      boolean batch = t == 1; // the second reader asks 64 keys at a time (the batch form)
      long[] hashes = new long[64];
      long[] bits = new long[1];
      readers[t] =
          new Thread(
              () -> {
                while (!done.get()) {
                  long p = published.get();
                  if (p == 0) {
                    continue;
                  }
                  // the first half is never removed
                  if (batch) {
                    for (int k = 0; k < hashes.length; k++) {
                      hashes[k] = ExpandableGrowthTest.keyHash(rnd.nextLong(Math.min(p, KEYS / 2)));
                    }
                    int found = f.mayContainHashes(hashes, 0, hashes.length, bits);
                    misses.addAndGet(hashes.length - found);
                    queries.addAndGet(hashes.length);
                    continue;
                  }
                  long i = rnd.nextLong(Math.min(p, KEYS / 2));
                  if (!f.mayContainHash(ExpandableGrowthTest.keyHash(i))) {
                    misses.incrementAndGet();
                  }
                  queries.incrementAndGet();
                }
              });
      readers[t].start();
    }
    for (long i = 0; i < KEYS; i++) {
      f.addHash(ExpandableGrowthTest.keyHash(i));
      published.set(i + 1);
    }
    for (long i = KEYS / 2; i < KEYS; i++) {
      assertTrue(f.removeHash(ExpandableGrowthTest.keyHash(i)));
    }
    // whole-table rebuilds under the readers: the halving, then the re-fit to a new shape
    f.compact();
    assertTrue(f.shrinkToFit(), f.toString());
    for (long i = KEYS; i < KEYS + KEYS / 4; i++) { // grows again from the re-fitted table
      f.addHash(ExpandableGrowthTest.keyHash(i));
    }
    done.set(true);
    for (Thread t : readers) {
      t.join();
    }
    assertEquals(0, misses.get(), misses.get() + " false negatives in " + queries.get());
    assertTrue(queries.get() > 0);
    assertTrue(f.doublings() >= 10);
  }

  @Test
  void concurrentWritersAreSerialized() throws InterruptedException {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    Thread[] writers = new Thread[2];
    for (int t = 0; t < writers.length; t++) {
      long base = t * 1_000_000L;
      writers[t] =
          new Thread(
              () -> {
                for (long i = 0; i < KEYS / 4; i++) {
                  f.addHash(ExpandableGrowthTest.keyHash(base + i));
                }
              });
      writers[t].start();
    }
    for (Thread t : writers) {
      t.join();
    }
    assertEquals(KEYS / 2, f.numKeys());
    for (int t = 0; t < writers.length; t++) {
      for (long i = 0; i < KEYS / 4; i++) {
        assertTrue(f.mayContainHash(ExpandableGrowthTest.keyHash(t * 1_000_000L + i)));
      }
    }
  }

  /**
   * A save while another thread adds (through doublings) gives one moment's header and payload:
   * every save, to bytes and streamed to a file, reads back (header checked against the payload,
   * checksum verified) and holds every key whose add returned before the save began. Read outside
   * the lock, the header's key count and size could disagree with the payload: the reader would
   * refuse the file ("header key count …") or the streamed write throw "wrote X, announced Y".
   */
  @Test
  void saveWhileAnotherThreadAddsReadsBackWithEveryEarlierKey(@TempDir Path dir) throws Exception {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    int keys = 120_000; // from 64 slots: about 11 doublings
    AtomicLong published = new AtomicLong();
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<String> problems = new ArrayList<>();
    Thread saver =
        new Thread(
            () -> {
              Path file = dir.resolve("f.sieve");
              int round = 0;
              try {
                while (!done.get() && problems.size() < 5) {
                  long before = published.get();
                  Filter back;
                  if (round++ % 2 == 0) {
                    back = SieveFormat.read(SieveFormat.toBytes(f));
                  } else {
                    try (FileChannel ch =
                        FileChannel.open(
                            file,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING)) {
                      SieveFormat.write(f, ch);
                    }
                    try (MappedSieveFile m = MappedSieveFile.open(file)) {
                      m.verify();
                      back = ((ExpandableFilter) m.filter()).copy();
                    }
                  }
                  if (back.numKeys() < before) {
                    problems.add("round " + round + ": " + back.numKeys() + " keys < " + before);
                  }
                  for (long i = 0; i < before; i++) {
                    if (!back.mayContainHash(ExpandableGrowthTest.keyHash(i))) {
                      problems.add("round " + round + ": key " + i + " of " + before + " missing");
                      break;
                    }
                  }
                }
              } catch (IOException | RuntimeException e) {
                failure.set(e);
              }
            });
    saver.start();
    for (long i = 0; i < keys; i++) {
      f.addHash(ExpandableGrowthTest.keyHash(i));
      published.set(i + 1);
    }
    done.set(true);
    saver.join();
    if (failure.get() != null) {
      throw new AssertionError("a save during adds failed", failure.get());
    }
    assertTrue(problems.isEmpty(), problems.toString());
    assertTrue(f.doublings() >= 8);
  }
}
