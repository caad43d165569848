package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The block kernel (occupieds, runends and a saturating offset per 64 slots) against a simple
 * model, a sorted multiset of values per quotient: random inserts, removes and queries at loads up
 * to the highest, with quotients crowded at the table's end (runs wrap round to slot 0), tables of
 * slot counts that are not a multiple of 64 (a partial last block), and a crafted dense table whose
 * offsets saturate. After the operations the table must decode, run by run, to exactly the model;
 * every stored offset must equal the one computed here from its definition (the slots from the
 * block's first one holding entries of earlier quotients, saturated at 65535); every query and
 * remove must give the model's answer.
 */
class ExpandableKernelDifferentialTest {

  private static final class Model {
    final TreeMap<Long, List<Long>> runs = new TreeMap<>();
    long size;

    void add(long q, long v) {
      runs.computeIfAbsent(q, k -> new ArrayList<>()).add(v);
      size++;
    }

    /** The longest matching value of {@code q}'s run, or −1. */
    long longestMatch(long q, long pos) {
      long best = -1;
      for (long v : runs.getOrDefault(q, List.of())) {
        if (ExpandableKernel.matches(v, pos)
            && (best < 0 || ExpandableKernel.length(v) > ExpandableKernel.length(best))) {
          best = v;
        }
      }
      return best;
    }

    void remove(long q, long v) {
      List<Long> run = runs.get(q);
      run.remove(Long.valueOf(v));
      if (run.isEmpty()) {
        runs.remove(q);
      }
      size--;
    }

    TreeMap<Long, List<Long>> sorted() {
      TreeMap<Long, List<Long>> out = new TreeMap<>();
      for (Map.Entry<Long, List<Long>> e : runs.entrySet()) {
        List<Long> vs = new ArrayList<>(e.getValue());
        Collections.sort(vs);
        out.put(e.getKey(), vs);
      }
      return out;
    }
  }

  /** Checks the table against the model: runs, occupied bits, offsets from their definition. */
  private static void check(long[] a, long n, int width, Model model, String where) {
    ExpandableSlots.Words t = new ExpandableSlots.Heap(a);
    TreeMap<Long, List<Long>> decoded = new TreeMap<>();
    long[] home = new long[(int) n];
    java.util.Arrays.fill(home, -1);
    ExpandableWrites.forEachRun(
        t,
        n,
        width,
        (q, first, length) -> {
          List<Long> vs = new ArrayList<>();
          for (int k = 0; k < length; k++) {
            long i = (first + k) % n;
            vs.add(ExpandableKernel.valueAt(t, width, i));
            home[(int) i] = q;
          }
          Collections.sort(vs);
          assertTrue(decoded.put(q, vs) == null, where + ": run " + q + " twice");
        });
    assertEquals(model.sorted(), decoded, where);
    for (long i = 0; i < n; i++) {
      assertEquals(model.runs.containsKey(i), ExpandableSlots.occupied(t, width, i), where);
      assertEquals(home[(int) i] >= 0, ExpandableSlots.value(t, width, i) != 0, where);
    }
    for (long b = 0; b < ExpandableSlots.blocks(n); b++) {
      long s = b << 6;
      long p = 0;
      // the slots from s holding entries whose quotient is before s (further back than they are)
      while (p < n
          && home[(int) ((s + p) % n)] >= 0
          && ExpandableKernel.dist(home[(int) ((s + p) % n)], (s + p) % n, n) > p) {
        p++;
      }
      assertEquals(
          Math.min(p, ExpandableSlots.SATURATED),
          ExpandableSlots.offset(t, width, b),
          where + ": offset of block " + b);
      assertEquals(p, ExpandableRank.blockOffset(t, n, width, b), where + ": block " + b);
    }
  }

  /** A hash whose quotient in a table of {@code n} slots is {@code q} (position random). */
  private static long hashAt(long q, long n, SplittableRandom rnd) {
    for (int tries = 0; ; tries++) {
      long h =
          Long.divideUnsigned(-1L, n) * q + (rnd.nextLong() & (Long.divideUnsigned(-1L, n) - 1));
      if (ExpandableKernel.quotient(h, n) == q) {
        return h;
      }
      assertTrue(tries < 100);
    }
  }

  private static void randomOperations(
      long n, int width, int steps, int checkEvery, SplittableRandom rnd, long[] a, Model model) {
    int bits = width - 3;
    long max = ExpandableMath.maxEntries(n);
    List<Long> hashes = new ArrayList<>();
    for (int step = 0; step < steps; step++) {
      int op = rnd.nextInt(10);
      if (op < 5 && model.size < max) {
        long h;
        if (rnd.nextInt(3) == 0) {
          h = hashAt((n - 1 - rnd.nextInt(8) + n) % n, n, rnd); // crowd the end: wrap round
        } else if (rnd.nextInt(3) == 0 && !hashes.isEmpty()) {
          h = hashes.get(rnd.nextInt(hashes.size())) ^ (rnd.nextLong() >>> 50); // duplicates
        } else {
          h = rnd.nextLong();
        }
        long q = ExpandableKernel.quotient(h, n);
        long v = ExpandableKernel.entryValue(h, n, rnd.nextInt(bits + 1));
        last = "insert q " + q + " v " + v + " before " + dump(a, n, width);
        ExpandableWrites.insert(a, n, width, q, v);
        model.add(q, v);
        hashes.add(h);
      } else if (op < 8 && !hashes.isEmpty()) {
        long h = hashes.remove(rnd.nextInt(hashes.size()));
        removeAndCompare(a, n, width, model, h);
      } else if (op < 9) {
        removeAndCompare(a, n, width, model, rnd.nextLong());
      } else {
        long h =
            rnd.nextBoolean() || hashes.isEmpty()
                ? rnd.nextLong()
                : hashes.get(rnd.nextInt(hashes.size()));
        long q = ExpandableKernel.quotient(h, n);
        boolean want = model.longestMatch(q, ExpandableKernel.position(h, n)) >= 0;
        assertEquals(want, ExpandableKernel.mayContain(a, n, width, h), "query at step " + step);
        assertEquals(want, ExpandableProbeOracle.mayContain(a, n, width, h), "oracle " + step);
      }
      if (step % checkEvery == 0) {
        check(
            a,
            n,
            width,
            model,
            "n " + n + " step " + step + " " + last + "\nafter " + dump(a, n, width));
      }
      if (step % Math.max(checkEvery, 40) == 0) {
        probes(a, n, width, hashes, rnd, "n " + n + " step " + step);
      }
    }
    check(a, n, width, model, "n " + n + " end");
    probes(a, n, width, hashes, rnd, "n " + n + " end");
    for (long h : hashes) {
      assertTrue(
          ExpandableKernel.mayContain(a, n, width, h)
              || model.longestMatch(
                      ExpandableKernel.quotient(h, n), ExpandableKernel.position(h, n))
                  < 0);
    }
  }

  /**
   * The probes against each other on the table as it is: for the present hashes ({@code hashes}, at
   * most 200 of them, from a random place) and as many random ones, the kernel's lookup must equal
   * the oracle's (the first kernel's backward walk), on the heap words and on the same words in a
   * little-endian buffer, and the batch form ({@code probeChunk}, chunks of 1 to 64 hashes) must
   * give the single answers bit for bit, on both.
   */
  static void probes(
      long[] a, long n, int width, List<Long> hashes, SplittableRandom rnd, String where) {
    int present = Math.min(200, hashes.size());
    int from = hashes.isEmpty() ? 0 : rnd.nextInt(hashes.size());
    long[] hs = new long[present + 200];
    for (int k = 0; k < present; k++) {
      hs[k] = hashes.get((from + k) % hashes.size());
    }
    for (int k = present; k < hs.length; k++) {
      hs[k] = rnd.nextLong();
    }
    ExpandableSlots.Words heap = new ExpandableSlots.Heap(a);
    java.nio.ByteBuffer bytes =
        java.nio.ByteBuffer.allocate(a.length * 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    bytes.asLongBuffer().put(a);
    ExpandableSlots.Words buffer = new ExpandableSlots.Buffer(bytes);
    boolean[] want = new boolean[hs.length];
    for (int k = 0; k < hs.length; k++) {
      want[k] = ExpandableProbeOracle.mayContain(heap, n, width, hs[k]);
      assertEquals(want[k], ExpandableKernel.mayContain(heap, n, width, hs[k]), where + " " + k);
      assertEquals(want[k], ExpandableKernel.mayContain(buffer, n, width, hs[k]), where + " " + k);
    }
    for (ExpandableSlots.Words t : List.of(heap, buffer)) {
      for (int at = 0; at < hs.length; ) {
        int chunk = Math.min(hs.length - at, 1 + rnd.nextInt(64));
        long bits = ExpandableKernel.probeChunk(t, n, width, hs, at, chunk);
        for (int i = 0; i < 64; i++) {
          boolean got = (bits >>> i & 1) != 0;
          assertEquals(i < chunk && want[at + i], got, where + ": batch at " + (at + i));
        }
        at += chunk;
      }
    }
  }

  static String last = "";

  static String dump(long[] a, long n, int width) {
    if (n > 64) {
      return "";
    }
    ExpandableSlots.Words t = new ExpandableSlots.Heap(a);
    StringBuilder b = new StringBuilder("off " + ExpandableSlots.offset(t, width, 0) + ":");
    for (long i = 0; i < n; i++) {
      b.append(' ')
          .append(i)
          .append(ExpandableSlots.occupied(t, width, i) ? "o" : "")
          .append(ExpandableSlots.runend(t, width, i) ? "e" : "")
          .append('=')
          .append(ExpandableSlots.value(t, width, i));
    }
    return b.toString();
  }

  private static void removeAndCompare(long[] a, long n, int width, Model model, long h) {
    long q = ExpandableKernel.quotient(h, n);
    last = "remove q " + q + " before " + dump(a, n, width);
    long want = model.longestMatch(q, ExpandableKernel.position(h, n));
    int got = ExpandableWrites.remove(a, n, width, h);
    assertEquals(want < 0 ? -1 : ExpandableKernel.length(want), got, "remove");
    if (want >= 0) {
      model.remove(q, want);
    }
  }

  @Test
  void randomOperationsMatchTheModelAtEveryLoad() {
    SplittableRandom rnd = new SplittableRandom(36);
    long[] sizes = {8, 64, 100, 128, 300, 1000, 4096};
    for (int round = 0; round < 28; round++) {
      long n = sizes[round % sizes.length];
      int width = 3 + 1 + rnd.nextInt(12);
      long[] a = new long[(int) ExpandableSlots.wordsFor(n, width)];
      Model model = new Model();
      int steps = (int) Math.min(6000, 8 * n);
      randomOperations(n, width, steps, n <= 300 ? 1 : 97, rnd, a, model);
    }
  }

  @Test
  void rebuildsKeepEveryEntry() {
    SplittableRandom rnd = new SplittableRandom(37);
    for (long n : new long[] {64, 300, 1000}) {
      int width = 10;
      long[] a = new long[(int) ExpandableSlots.wordsFor(n, width)];
      Model model = new Model();
      randomOperations(n, width, (int) (3 * n), 50, rnd, a, model);
      // wider at the same size: the same runs
      long[] wider = new long[(int) ExpandableSlots.wordsFor(n, width + 3)];
      assertEquals(model.size, ExpandableWrites.rebuild(a, n, width, wider, n, width + 3));
      check(wider, n, width + 3, model, "wider");
      // doubled: each value to run 2q + top bit, void ones to both
      Model doubled = new Model();
      for (Map.Entry<Long, List<Long>> e : model.runs.entrySet()) {
        for (long v : e.getValue()) {
          int r = ExpandableKernel.length(v);
          if (r == 0) {
            doubled.add(2 * e.getKey(), 1);
            doubled.add(2 * e.getKey() + 1, 1);
          } else {
            doubled.add(
                2 * e.getKey() + (v >>> (r - 1) & 1),
                (1L << (r - 1)) | (v & ((1L << (r - 1)) - 1)));
          }
        }
      }
      long[] big = new long[(int) ExpandableSlots.wordsFor(2 * n, width)];
      assertEquals(doubled.size, ExpandableWrites.rebuild(a, n, width, big, 2 * n, width));
      check(big, 2 * n, width, doubled, "doubled");
    }
  }

  /**
   * A crafted dense table: 70,000 entries on 1,000 quotients round the end of a table of 2^17
   * slots, laid out by the rebuild's appender: one cluster of about 70,000 slots that wraps round
   * slot 0, whose first blocks' offsets pass 65,535 and saturate. Queries, inserts and removes in
   * it (the slow path: the offset computed from the nearest unsaturated block before) must agree
   * with the model, and removes must restore exact offsets as the cluster shrinks.
   */
  @Test
  void saturatedOffsetsFallBackToTheSlowPath() {
    long n = 1 << 17;
    int width = 8;
    long[] a = new long[(int) ExpandableSlots.wordsFor(n, width)];
    Model model = new Model();
    SplittableRandom rnd = new SplittableRandom(38);
    ExpandableWrites.Appender out = new ExpandableWrites.Appender(a, n, width);
    for (long k = 0; k < 1000; k++) {
      long q = (n - 500 + k) % n;
      for (int j = 0; j < 70; j++) {
        long v = (1L << 5) | rnd.nextInt(32);
        out.append(q, v);
        model.add(q, v);
      }
    }
    out.finish();
    ExpandableSlots.Words t = new ExpandableSlots.Heap(a);
    int saturated = 0;
    for (long b = 0; b < ExpandableSlots.blocks(n); b++) {
      saturated += ExpandableSlots.offset(t, width, b) == ExpandableSlots.SATURATED ? 1 : 0;
    }
    assertTrue(saturated > 30, saturated + " saturated blocks");
    check(a, n, width, model, "crafted");
    // operations in the dense part (quotients near the end and just after 0) and elsewhere
    List<Long> hashes = new ArrayList<>();
    for (int step = 0; step < 300; step++) {
      long q = rnd.nextInt(4) == 0 ? rnd.nextLong(n) : (n - 520 + rnd.nextInt(1100)) % n;
      long h = hashAt(q, n, rnd);
      int op = rnd.nextInt(3);
      if (op == 0) {
        long v = ExpandableKernel.entryValue(h, n, rnd.nextInt(6));
        ExpandableWrites.insert(a, n, width, q, v);
        model.add(q, v);
        hashes.add(h);
      } else if (op == 1) {
        removeAndCompare(
            a,
            n,
            width,
            model,
            rnd.nextBoolean() || hashes.isEmpty() ? h : hashes.remove(rnd.nextInt(hashes.size())));
      } else {
        assertEquals(
            model.longestMatch(q, ExpandableKernel.position(h, n)) >= 0,
            ExpandableKernel.mayContain(a, n, width, h));
      }
    }
    check(a, n, width, model, "after the operations");
    // the present keys of the crafted cluster too: a hash whose position's top r bits are a
    // stored entry's fingerprint (n = 2^17), for one entry of every fifth run
    List<Long> crafted = new ArrayList<>(hashes);
    int every = 0;
    for (Map.Entry<Long, List<Long>> e : model.runs.entrySet()) {
      if (every++ % 5 == 0) {
        long v = e.getValue().get(0);
        int r = ExpandableKernel.length(v);
        crafted.add(
            e.getKey() << 47
                | (r == 0 ? 0 : (v & ((1L << r) - 1)) << (47 - r))
                | rnd.nextInt(1 << 20));
      }
    }
    for (int k = 0; k < crafted.size(); k += 200) {
      probes(a, n, width, crafted.subList(k, Math.min(crafted.size(), k + 200)), rnd, "dense");
    }
    // shrink the cluster: remove the first 55 runs (3,850 entries) until no offset saturates
    for (long k = 0; k < 55; k++) {
      long q = (n - 500 + k) % n;
      while (model.runs.containsKey(q)) {
        long v = model.runs.get(q).get(0);
        int r = ExpandableKernel.length(v);
        // a hash whose position's top r bits are v's fingerprint (n = 2^17)
        long h = q << 47 | (r == 0 ? 0 : (v & ((1L << r) - 1)) << (47 - r)) | rnd.nextInt(1 << 20);
        removeAndCompare(a, n, width, model, h);
      }
    }
    saturated = 0;
    for (long b = 0; b < ExpandableSlots.blocks(n); b++) {
      saturated += ExpandableSlots.offset(t, width, b) == ExpandableSlots.SATURATED ? 1 : 0;
    }
    assertEquals(0, saturated, "saturated blocks after the cluster shrank");
    check(a, n, width, model, "shrunk");
    probes(a, n, width, hashes, rnd, "shrunk");
  }
}
