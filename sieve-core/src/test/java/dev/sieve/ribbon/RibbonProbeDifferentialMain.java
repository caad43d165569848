package dev.sieve.ribbon;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The differential check of {@link RibbonProbe#heap} (the straight-line probe) against {@link
 * RibbonProbeOracle#heap} (the probe it replaced), shared by {@code RibbonProbeDifferentialTest}'s
 * jqwik properties and, as a main class, run in a fresh JVM so that the first comparisons are the
 * JVM's first calls of the probe (interpreted) and the last ones run after more than 10^5 calls
 * (compiled; the test checks the compilation log).
 *
 * <p>Four kinds of case: random solution data of random shapes (1 to 40 blocks, 0 to 32 columns,
 * short blocks first) probed at random starts and coefficient rows; solved Standard Ribbon filters
 * at random sizes and rates (fractional and whole column counts), probed with their added keys
 * (every answer must be true) and random hashes; random Bumped Ribbon layers (random metadata,
 * thresholds and data); and solved Bumped Ribbon filters at random result bits. Every answer of the
 * new probe must equal the oracle's, and every added key must be found.
 */
public final class RibbonProbeDifferentialMain {
  private RibbonProbeDifferentialMain() {}

  /** One comparison of the two probes on raw data; throws on a difference. */
  static void compareRaw(long[] data, int upper, int upperStartBlock, int start, long a) {
    boolean got = RibbonProbe.heap(data, upper, upperStartBlock, start, a);
    if (got != RibbonProbeOracle.heap(data, upper, upperStartBlock, start, a)) {
      throw new AssertionError(
          "raw: new probe answers "
              + got
              + " for start "
              + start
              + ", a "
              + a
              + ", upper "
              + upper
              + ", upperStartBlock "
              + upperStartBlock
              + ", "
              + data.length
              + " words");
    }
  }

  /** Random data of a random shape, probed {@code probes} times; returns the comparisons made. */
  static int randomShape(SplittableRandom rnd, int numBlocks, int probes) {
    int numSegments = RibbonProbeReferenceTest.randomSegments(rnd, numBlocks);
    int upper = (numSegments + numBlocks - 1) / numBlocks;
    int upperStartBlock = upper * numBlocks - numSegments;
    long[] data = new long[RibbonProbe.paddedWords(numSegments, upper)];
    for (int i = 0; i < 2 * numSegments; i++) {
      data[i] = rnd.nextLong();
    }
    int numStarts = numBlocks * 128 - 127;
    for (int i = 0; i < probes; i++) {
      int start = (i & 7) == 0 ? (numBlocks - 1) * 128 : rnd.nextInt(numStarts);
      // (random rows match in all columns only at 0 to 3 columns; the solved filters below give
      // the positives at every column count)
      long a = rnd.nextLong();
      compareRaw(data, upper, upperStartBlock, start, a);
    }
    return probes;
  }

  /** A solved Standard Ribbon filter and its added key hashes. */
  record Standard(Standard128RibbonFilter filter, long[] padded, long[] hashes) {}

  /** A Standard Ribbon filter of {@code n} random key hashes at rate {@code 2^-log2OneIn}. */
  static Standard standard(SplittableRandom rnd, int n, double log2OneIn) {
    long[] hashes = rnd.longs(n).toArray();
    Standard128RibbonFilter f =
        Standard128RibbonFilter.builder().fpRate(Math.pow(2, -log2OneIn)).buildFromHashes(hashes);
    return new Standard(f, RibbonProbeOracle.padded(f), hashes);
  }

  /** Added keys (must all match) and random hashes against the oracle; returns the comparisons. */
  static int probeStandard(Standard s, SplittableRandom rnd, int probes) {
    for (int i = 0; i < probes; i++) {
      boolean added = s.hashes.length > 0 && (i & 1) == 0;
      long h = added ? s.hashes[rnd.nextInt(s.hashes.length)] : rnd.nextLong();
      boolean got = s.filter.mayContainHash(h);
      if (got != RibbonProbeOracle.standard(s.filter, s.padded, h) || (added && !got)) {
        throw new AssertionError(
            "standard: new probe answers "
                + got
                + " for hash "
                + h
                + " (added "
                + added
                + ") in "
                + s.filter);
      }
    }
    return probes;
  }

  /** A solved Bumped Ribbon filter and its added key hashes. */
  record Bumped(BumpedRibbonFilter filter, long[] hashes) {}

  static Bumped bumped(SplittableRandom rnd, int n, double resultBits) {
    long[] hashes = rnd.longs(n).toArray();
    BumpedRibbonFilter f =
        BumpedRibbonFilter.builder()
            .resultBits(resultBits)
            .seed(rnd.nextLong())
            .buildFromHashes(hashes);
    return new Bumped(f, hashes);
  }

  static int probeBumped(Bumped b, SplittableRandom rnd, int probes) {
    for (int i = 0; i < probes; i++) {
      boolean added = b.hashes.length > 0 && (i & 1) == 0;
      long h = added ? b.hashes[rnd.nextInt(b.hashes.length)] : rnd.nextLong();
      boolean got = b.filter.mayContainHash(h);
      if (got != RibbonProbeOracle.bumped(b.filter, h) || (added && !got)) {
        throw new AssertionError(
            "bumped: new probe answers "
                + got
                + " for hash "
                + h
                + " (added "
                + added
                + ") in "
                + b.filter);
      }
    }
    return probes;
  }

  /** A random heap layer (metadata, data) probed through {@code Layer.probe} and the oracle's. */
  static int randomLayer(SplittableRandom rnd, int numBlocks, int probes) {
    int numSegments = RibbonProbeReferenceTest.randomSegments(rnd, numBlocks);
    long[] meta = new long[BumpedRibbonKernel.metaWords(numBlocks)];
    for (int i = 0; i < meta.length; i++) {
      meta[i] = rnd.nextLong();
    }
    long[] data = new long[2 * numSegments];
    for (int i = 0; i < data.length; i++) {
      data[i] = rnd.nextLong();
    }
    BumpedRibbonKernel.Layer l =
        new BumpedRibbonKernel.Layer(rnd.nextLong(), numBlocks, numSegments, meta, data);
    int t1 = rnd.nextInt(64);
    int thresholds = BumpedRibbonKernel.packThresholds(t1, t1 + rnd.nextInt(128 - t1));
    for (int i = 0; i < probes; i++) {
      long h = rnd.nextLong();
      int got = l.probe(h, thresholds);
      if (got != RibbonProbeOracle.layerProbe(l, h, thresholds)) {
        throw new AssertionError("layer: new probe answers " + got + " for hash " + h);
      }
    }
    return probes;
  }

  /** Cases of every kind from {@code seed}, for the fresh-JVM run. */
  static List<Object> cases(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Object> cases = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      cases.add(standard(rnd, rnd.nextInt(3000), 1 + 19 * rnd.nextDouble()));
      cases.add(bumped(rnd, 1 + rnd.nextInt(3000), 1 + 15 * rnd.nextDouble()));
    }
    return cases;
  }

  /** One round over the cases: every kind, {@code probes} comparisons each; returns the count. */
  static long round(List<Object> cases, SplittableRandom rnd, int probes) {
    long n = 0;
    n += randomShape(rnd, 1 + rnd.nextInt(40), probes);
    n += randomLayer(rnd, 1 + rnd.nextInt(40), probes);
    for (Object c : cases) {
      if (c instanceof Standard s) {
        n += probeStandard(s, rnd, probes);
      } else {
        n += probeBumped((Bumped) c, rnd, probes);
      }
    }
    return n;
  }

  /**
   * Prints {@code cold N} after the first round (the JVM's first calls of the probes, a few per
   * case), then {@code warm N} after at least {@code args[1]} comparisons; exits non-zero on the
   * first difference.
   */
  public static void main(String[] args) {
    long seed = Long.parseLong(args[0]);
    long total = Long.parseLong(args[1]);
    List<Object> cases = cases(seed);
    SplittableRandom rnd = new SplittableRandom(seed ^ 0x5EED);
    long n = round(cases, rnd, 8);
    System.out.println("cold " + n);
    while (n < total) {
      n += round(cases, rnd, 200);
    }
    System.out.println("warm " + n);
  }
}
