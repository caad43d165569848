package dev.sieve.ribbon;

import java.util.SplittableRandom;

/**
 * Not a test: prints size overhead, model FPR, layers and build time of Bumped Ribbon filters for a
 * grid of thresholds and loads, the measurements behind {@link BumpedRibbonFilter#LOAD} and the
 * default thresholds. Run: {@code java -cp sieve-core/target/classes:sieve-core/target/test-classes
 * dev.sieve.ribbon.BumpedRibbonTuning 1000000}.
 */
public final class BumpedRibbonTuning {
  private BumpedRibbonTuning() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    long[] keys = new SplittableRandom(1).longs(n).toArray();
    int[][] ts = {{16, 32}, {16, 48}, {24, 48}, {32, 64}, {8, 24}, {12, 32}};
    double[] loads = {0.98, 1.0, 1.02, 1.05};
    for (int rep = 0; rep < 2; rep++) {
      for (int[] t : ts) {
        for (double load : loads) {
          long t0 = System.nanoTime();
          BumpedRibbonFilter f = BumpedRibbonBanding.build(keys, n, 7, 0, t[0], t[1], load);
          long ns = System.nanoTime() - t0;
          System.out.printf(
              "T=%d,%d load=%.2f layers=%d slots/key=%.5f bits/key=%.4f overhead=%.5f fpr=%.5f"
                  + " build=%.1f ns/key%n",
              t[0],
              t[1],
              load,
              f.numLayers(),
              (double) f.numSlots() / n,
              f.bitsPerKey(),
              f.overheadOverFloor(),
              f.modelledFpRate(),
              (double) ns / n);
        }
      }
    }
  }
}
