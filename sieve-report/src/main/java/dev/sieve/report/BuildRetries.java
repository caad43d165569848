package dev.sieve.report;

import dev.sieve.bench.Workload;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.hash.KeyHash;
import dev.sieve.ribbon.RibbonSizing;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor8Filter;
import java.util.ArrayList;
import java.util.List;

/**
 * Build failure and retry counts of the solve-based Sieve filters over many key sets (different
 * seeds): Ribbon (seeds tried past the first, and growth when all 256 fail), Xor8 and Binary Fuse 8
 * (peeling attempts past the first), Cuckoo (insertions that fail after {@value
 * CuckooFilter#MAX_KICKS} kicks at its design load 0.95, and at 0.98 to show the cliff). Blocked
 * Bloom's monotone build never fails and is listed for contrast.
 */
final class BuildRetries {
  private BuildRetries() {}

  /** Xor/Fuse attempt seeds step by 2^64/φ; its inverse mod 2^64 recovers the attempt number. */
  private static final long SEED_STEP = 0x9E37_79B9_7F4A_7C15L;

  private static final long SEED_STEP_INVERSE = inverse(SEED_STEP);

  private static long inverse(long odd) {
    long x = odd; // Newton: x = x(2 - a·x), doubling correct bits each step
    for (int i = 0; i < 6; i++) {
      x *= 2 - odd * x;
    }
    return x;
  }

  static List<Result> measure(int maxKeys, long seed) {
    List<Result> rows = new ArrayList<>();
    for (int n : new int[] {1_000, 100_000}) {
      if (n > Math.max(1_000, maxKeys)) {
        continue;
      }
      int builds = n <= 1_000 ? 1000 : 30;
      rows.add(ribbon(n, builds, seed));
      rows.add(xor(n, builds, seed, false));
      rows.add(xor(n, builds, seed, true));
      rows.add(cuckoo(n, builds, seed, 1.0));
      rows.add(cuckoo(n, builds, seed, 0.98 / CuckooFilter.DESIGN_LOAD));
      rows.add(row("sieve-blocked-bloom", n, builds, 0, 0, "monotone: sets bits, cannot fail"));
    }
    return rows;
  }

  private static long[] hashes(int n, long seed) {
    long[] keys = Workload.create(n, seed).keys();
    long[] h = new long[n];
    for (int i = 0; i < n; i++) {
      h[i] = KeyHash.hash64(keys[i]);
    }
    return h;
  }

  private static Result ribbon(int n, int builds, long seed) {
    long failures = 0;
    long retries = 0;
    long grown = 0;
    for (int b = 0; b < builds; b++) {
      long[] h = hashes(n, seed + b);
      int firstSeed = (int) h[0] & 255; // RocksDB's first ordinal seed: the first hash's low byte
      Standard128RibbonFilter f =
          Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(10).buildFromHashes(h);
      int extra = (f.seed() - firstSeed) & 255;
      retries += extra;
      if (extra > 0) {
        failures++;
      }
      if (f.numSlots() > RibbonSizing.numSlotsForKeys(n)) {
        grown++;
      }
    }
    return row(
        "sieve-ribbon",
        n,
        builds,
        failures,
        retries,
        "seeds past the first (of 256); builds grown after all 256 failed: " + grown);
  }

  private static Result xor(int n, int builds, long seed, boolean fuse) {
    long failures = 0;
    long retries = 0;
    long base = 0x243F_6A88_85A3_08D3L;
    for (int b = 0; b < builds; b++) {
      long[] h = hashes(n, seed + b);
      long used =
          fuse
              ? BinaryFuse8Filter.builder().seed(base).buildFromHashes(h).seed()
              : Xor8Filter.builder().seed(base).buildFromHashes(h).seed();
      long attempts = (used - base) * SEED_STEP_INVERSE;
      if (attempts != 0) {
        failures++;
        retries += attempts;
      }
    }
    return row(
        fuse ? "sieve-binary-fuse8" : "sieve-xor8",
        n,
        builds,
        failures,
        retries,
        "peeling attempts past the first");
  }

  private static Result cuckoo(int n, int builds, long seed, double overload) {
    long failures = 0;
    long failedInserts = 0;
    for (int b = 0; b < builds; b++) {
      long[] h = hashes(n, seed + b);
      CuckooFilter f = CuckooFilter.createWithFingerprintBits((long) Math.ceil(n / overload), 8);
      boolean failed = false;
      for (long x : h) {
        if (!f.addHash(x)) {
          failedInserts++;
          failed = true;
        }
      }
      if (failed) {
        failures++;
      }
    }
    double load = Math.min(1.0, CuckooFilter.DESIGN_LOAD * overload);
    return row(
        "sieve-cuckoo8 @load " + String.format(java.util.Locale.ROOT, "%.2f", load),
        n,
        builds,
        failures,
        failedInserts,
        "builds with an insertion failing after "
            + CuckooFilter.MAX_KICKS
            + " kicks; retries column = failed insertions");
  }

  private static Result row(
      String name, int n, int builds, long failures, long retries, String detail) {
    return new Result(name, n, builds, failures, (double) failures / builds, retries, detail);
  }

  /**
   * One filter's build failures at one key count.
   *
   * @param failures builds whose first attempt failed
   * @param retries attempts past the first (Cuckoo: failed insertions)
   */
  public record Result(
      String name,
      int n,
      int builds,
      long failures,
      double failureRate,
      long retries,
      String detail) {}
}
