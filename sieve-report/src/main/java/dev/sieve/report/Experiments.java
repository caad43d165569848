package dev.sieve.report;

import dev.sieve.bench.BlockVariantBloom;
import dev.sieve.bench.Family;
import dev.sieve.bench.Membership;
import dev.sieve.bench.StructureKind;
import dev.sieve.bench.Workload;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.hash.KeyHash;
import dev.sieve.math.BloomMath;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * The figures behind docs/notes.md's answers, measured on the run's keys: set-bit fraction against
 * k, the FPR when the block index reuses the probe bits, the FPR at 64/128/256/512-bit blocks
 * against the models, the keys-per-block statistics of the blocked Bloom filter, and the FPR
 * against bits/key of every size-configurable structure (for the plot). Each table is a list of
 * rows (maps), so it goes to results.json as it is and to report.md as a table.
 */
public final class Experiments {
  private final Workload workload;
  private final long[] hashes;
  private final long queries;

  /**
   * @param workload the keys (the report uses at most 10^6 of its keys here)
   * @param queries absent keys per FPR point
   */
  public Experiments(Workload workload, long queries) {
    this.workload = workload;
    this.queries = queries;
    long[] keys = workload.keys();
    this.hashes = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      hashes[i] = KeyHash.hash64(keys[i]);
    }
  }

  /** FPR of {@code test} over fresh absent keys (their hashes), counting only true absentees. */
  private double[] fpr(LongPredicate testKey, long stream) {
    Workload.AbsentKeys absent = workload.absentKeys(stream);
    long asked = 0;
    long fp = 0;
    for (long i = 0; i < queries; i++) {
      long key = absent.nextUnchecked();
      if (testKey.test(key)) {
        if (workload.contains(key)) {
          continue;
        }
        fp++;
      }
      asked++;
    }
    return new double[] {
      (double) fp / asked, Stats.wilsonLow(fp, asked), Stats.wilsonHigh(fp, asked)
    };
  }

  /**
   * Question 1: fraction of set bits and FPR of a standard Bloom filter at 10 bits/key, k=1..14.
   */
  public List<SetBits> setBitsAgainstProbes(double bitsPerKey) {
    List<SetBits> rows = new ArrayList<>();
    for (int k = 1; k <= 14; k++) {
      StandardBloomFilter f =
          StandardBloomFilter.builder().bitsPerKey(bitsPerKey).numProbes(k).buildFromHashes(hashes);
      double[] fpr = fpr(key -> f.mayContain(key), 100 + k);
      rows.add(
          new SetBits(
              k,
              f.fractionOfBitsSet(),
              1 - zeroBitsFraction(f.bitsPerKey(), k),
              fpr[0],
              fpr[1],
              fpr[2],
              BloomMath.standardFpRate(f.bitsPerKey(), k),
              k == BloomMath.optimalNumProbes(bitsPerKey)));
    }
    return rows;
  }

  /** Question 1, blocked: the blocked Bloom filter's own set fraction at its chosen k. */
  public BlockedSetBits blockedSetBits(double bitsPerKey) {
    BlockedBloomFilter f =
        BlockedBloomFilter.builder().bitsPerKey(bitsPerKey).buildFromHashes(hashes);
    return new BlockedSetBits(
        f.bitsPerKey(),
        f.numProbes(),
        f.fractionOfBitsSet(),
        1 - zeroBitsFraction(f.bitsPerKey(), f.numProbes()));
  }

  /** The fraction of bits a standard Bloom filter leaves 0 after its keys: {@code e^(-k/b)}. */
  private static double zeroBitsFraction(double bitsPerKey, int numProbes) {
    return Math.exp(-numProbes / bitsPerKey);
  }

  /** Question 2: the FPR when the block index reuses the probe bits, against when it does not. */
  public List<BlockIndexReuse> blockIndexReuse(double bitsPerKey, int k) {
    List<BlockIndexReuse> rows = new ArrayList<>();
    for (boolean reuse : new boolean[] {false, true}) {
      BlockVariantBloom f = variant(bitsPerKey, 512, k, reuse);
      double[] fpr = fpr(key -> f.mayContainHash(KeyHash.hash64(key)), reuse ? 201 : 202);
      rows.add(
          new BlockIndexReuse(
              reuse ? "h2 (same bits as the probes)" : "h1 (independent of the probes)",
              512,
              k,
              fpr[0],
              fpr[1],
              fpr[2],
              BloomMath.cacheLocalFpRate(bitsPerKey, k, 512),
              fpr[0] / BloomMath.cacheLocalFpRate(bitsPerKey, k, 512)));
    }
    return rows;
  }

  /**
   * Question 3: FPR at 64/128/256/512-bit blocks against CacheLocalFpRate and the exact Poisson.
   */
  public List<BlockSize> blockSizes(double bitsPerKey, int k) {
    List<BlockSize> rows = new ArrayList<>();
    double standard = BloomMath.standardFpRate(bitsPerKey, k);
    for (int blockBits : new int[] {64, 128, 256, 512}) {
      BlockVariantBloom f = variant(bitsPerKey, blockBits, k, false);
      double[] fpr = fpr(key -> f.mayContainHash(KeyHash.hash64(key)), 300 + blockBits);
      double[] load = keysPerBlock(f);
      double cacheLocal = BloomMath.cacheLocalFpRate(bitsPerKey, k, blockBits);
      rows.add(
          new BlockSize(
              blockBits,
              k,
              load[0],
              load[1],
              fpr[0],
              fpr[1],
              fpr[2],
              cacheLocal,
              BloomMath.poissonBlockedFpRate(bitsPerKey, k, blockBits),
              standard,
              fpr[0] / standard,
              cacheLocal / standard));
    }
    return rows;
  }

  /**
   * The seed's comparison: Sieve's blocked Bloom filter's measured FPR over the standard rate, next
   * to what CacheLocalFpRate predicts for the measured keys-per-block mean.
   */
  public BlockedAgainstTheory blockedAgainstTheory(double bitsPerKey) {
    BlockedBloomFilter f =
        BlockedBloomFilter.builder().bitsPerKey(bitsPerKey).buildFromHashes(hashes);
    int blocks = f.numBlocks();
    long[] counts = new long[blocks];
    for (long h : hashes) {
      counts[(int) (((h & 0xffffffffL) * blocks) >>> 32)]++; // FastRange32(h1, blocks)
    }
    double[] load = meanVariance(counts);
    double[] fpr = fpr(key -> f.mayContain(key), 400);
    int k = f.numProbes();
    double effectiveBitsPerKey = 512 / load[0];
    double standard = BloomMath.standardFpRate(effectiveBitsPerKey, k);
    double cacheLocal = BloomMath.cacheLocalFpRate(effectiveBitsPerKey, k, 512);
    return new BlockedAgainstTheory(
        hashes.length,
        f.bitsPerKey(),
        k,
        load[0],
        load[1],
        load[0],
        fpr[0],
        fpr[1],
        fpr[2],
        standard,
        cacheLocal,
        BloomMath.poissonBlockedFpRate(effectiveBitsPerKey, k, 512),
        fpr[0] / standard,
        cacheLocal / standard,
        fpr[0] / cacheLocal);
  }

  /** Question 1: one probe count of the standard Bloom filter. */
  public record SetBits(
      int k,
      double fractionSetMeasured,
      double fractionSetModel,
      double fprMeasured,
      double fprLow95,
      double fprHigh95,
      double fprModel,
      boolean optimalK) {}

  /** Question 1, blocked: the blocked Bloom filter at its own probe count. */
  public record BlockedSetBits(
      double bitsPerKey, int k, double fractionSetMeasured, double fractionSetModel) {}

  /** Question 2: one way of choosing the block index. */
  public record BlockIndexReuse(
      String blockIndexFrom,
      int blockBits,
      int k,
      double fprMeasured,
      double fprLow95,
      double fprHigh95,
      double fprModelCacheLocal,
      double measuredOverModel) {}

  /** Question 3: one block size against the models. */
  public record BlockSize(
      int blockBits,
      int k,
      double keysPerBlockMean,
      double keysPerBlockVariance,
      double fprMeasured,
      double fprLow95,
      double fprHigh95,
      double fprCacheLocal,
      double fprPoisson,
      double fprStandard,
      double taxMeasured,
      double taxCacheLocal) {}

  /** The blocked Bloom filter's measured FPR against the models at its keys-per-block mean. */
  public record BlockedAgainstTheory(
      int n,
      double bitsPerKey,
      int k,
      double keysPerBlockMean,
      double keysPerBlockVariance,
      double keysPerBlockVariancePoisson,
      double fprMeasured,
      double fprLow95,
      double fprHigh95,
      double fprStandard,
      double fprCacheLocal,
      double fprPoisson,
      double ratioMeasuredOverStandard,
      double ratioCacheLocalOverStandard,
      double ratioMeasuredOverCacheLocal) {}

  /**
   * One measured point of the FPR sweep.
   *
   * @param name the structure
   * @param bitsPerKeySetting the bits/key it was asked for
   * @param bitsPerKey the bits/key it took
   * @param fprMeasured the measured FPR, with its Wilson 95% interval
   * @param fprModel the FPR its model predicts at that size
   */
  public record SweepPoint(
      String name,
      double bitsPerKeySetting,
      double bitsPerKey,
      double fprMeasured,
      double fprLow95,
      double fprHigh95,
      double fprModel) {}

  /**
   * FPR against bits/key for the size-configurable kinds (the plot's measured points). The batch,
   * pre-hashed and fast-hash variants of a filter are skipped: the same filter, the same FPR.
   */
  public List<SweepPoint> fprSweep(List<StructureKind> kinds, double[] bitsPerKey) {
    List<SweepPoint> rows = new ArrayList<>();
    int stream = 500;
    for (StructureKind kind : kinds) {
      if (!kind.sizedByBitsPerKey()
          || kind.family() == Family.LIMIT
          || kind.family() == Family.EXACT
          || !RowSets.baseFilter(kind.name()).equals(kind.name())) {
        continue;
      }
      for (double b : bitsPerKey) {
        Membership m = kind.build(workload.keys(), b);
        double[] fpr = fpr(m::mayContain, stream++);
        rows.add(
            new SweepPoint(
                kind.name(),
                b,
                (double) m.sizeInBits() / workload.size(),
                fpr[0],
                fpr[1],
                fpr[2],
                m.modelFpRate()));
      }
    }
    return rows;
  }

  private BlockVariantBloom variant(double bitsPerKey, int blockBits, int k, boolean reuse) {
    BlockVariantBloom f = new BlockVariantBloom(hashes.length, bitsPerKey, blockBits, k, reuse);
    for (long h : hashes) {
      f.addHash(h);
    }
    return f;
  }

  private double[] keysPerBlock(BlockVariantBloom f) {
    long[] counts = new long[f.numBlocks()];
    for (long h : hashes) {
      counts[f.block(h)]++;
    }
    return meanVariance(counts);
  }

  private static double[] meanVariance(long[] counts) {
    double sum = 0;
    for (long c : counts) {
      sum += c;
    }
    double mean = sum / counts.length;
    double sq = 0;
    for (long c : counts) {
      sq += (c - mean) * (c - mean);
    }
    return new double[] {mean, sq / counts.length};
  }
}
