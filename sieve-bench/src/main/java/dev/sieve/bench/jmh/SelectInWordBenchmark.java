package dev.sieve.bench.jmh;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The select-in-word step of Grafite's successor query (the position of the {@code k}-th set bit of
 * a 64-bit word), two ways, to choose between them (JDK 17 has no {@code pdep} intrinsic): {@code
 * impl=table}, the broadword select {@code dev.sieve.range.EliasFano} uses (byte popcounts summed
 * by one multiply, compared with {@code k} in every byte at once, then a 2 KiB table within the
 * byte; no data-dependent branch), against {@code impl=loop}, clearing the {@code k} lowest set
 * bits one by one and taking {@code Long.numberOfTrailingZeros} (a branch per bit). Words of the
 * density of Elias–Fano upper bits ({@code density=half}: about 32 set bits) or sparse ones ({@code
 * sparse}: about 8), {@code k} uniform below the count. Run: {@code java -cp
 * sieve-bench/target/sieve-bench-all.jar org.openjdk.jmh.Main SelectInWordBenchmark -f 1 -wi 3 -i
 * 5}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SelectInWordBenchmark {
  private static final int COUNT = 1 << 12;

  @Param({"table", "loop"})
  public String impl;

  @Param({"half", "sparse"})
  public String density;

  private long[] words;
  private int[] ranks;

  private static final byte[] SELECT_IN_BYTE = new byte[8 * 256];

  static {
    for (int b = 0; b < 256; b++) {
      int k = 0;
      for (int i = 0; i < 8; i++) {
        if ((b >>> i & 1) != 0) {
          SELECT_IN_BYTE[(k++ << 8) | b] = (byte) i;
        }
      }
    }
  }

  @Setup
  public void setup() {
    SplittableRandom rnd = new SplittableRandom(17);
    words = new long[COUNT];
    ranks = new int[COUNT];
    for (int i = 0; i < COUNT; i++) {
      long x = rnd.nextLong();
      if (density.equals("sparse")) {
        x &= rnd.nextLong() & rnd.nextLong();
      }
      if (x == 0) {
        x = 1;
      }
      words[i] = x;
      ranks[i] = rnd.nextInt(Long.bitCount(x));
    }
  }

  /** The broadword select with a table within the byte (as {@code EliasFano.select}). */
  static int selectTable(long x, int k) {
    long s = x - ((x >>> 1) & 0x5555_5555_5555_5555L);
    s = (s & 0x3333_3333_3333_3333L) + ((s >>> 2) & 0x3333_3333_3333_3333L);
    s = (s + (s >>> 4)) & 0x0F0F_0F0F_0F0F_0F0FL;
    long cum = s * 0x0101_0101_0101_0101L;
    long atMostK =
        (((k * 0x0101_0101_0101_0101L) | 0x8080_8080_8080_8080L) - cum) & 0x8080_8080_8080_8080L;
    int place = Long.bitCount(atMostK) << 3;
    int before = (int) ((cum << 8) >>> place) & 0xFF;
    return place + SELECT_IN_BYTE[((k - before) << 8) | (int) ((x >>> place) & 0xFF)];
  }

  /** Clearing the lowest set bits, then the trailing zeros. */
  static int selectLoop(long x, int k) {
    for (int i = 0; i < k; i++) {
      x &= x - 1;
    }
    return Long.numberOfTrailingZeros(x);
  }

  @Benchmark
  @OperationsPerInvocation(COUNT)
  public int select() {
    int sum = 0;
    long[] w = words;
    int[] r = ranks;
    if (impl.equals("table")) {
      for (int i = 0; i < COUNT; i++) {
        sum += selectTable(w[i], r[i]);
      }
    } else {
      for (int i = 0; i < COUNT; i++) {
        sum += selectLoop(w[i], r[i]);
      }
    }
    return sum;
  }
}
