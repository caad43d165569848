package dev.sieve.bench;

/**
 * A small driver for counting instructions per lookup under {@code valgrind --tool=callgrind}
 * (instruction counts are repeatable on a loaded machine, where timings are not): it builds one
 * structure as {@code QueryBenchmark} does, runs the benchmark's loop ({@link
 * Membership#mayContainBatch} over runs of {@value Membership#BATCH} keys from a pre-drawn stream
 * of 2^20) for a warm-up, then for the measured lookups, and prints the hits so nothing is dead
 * code. Run it twice with two measured counts and divide the difference of the two totals by the
 * difference of the counts: start-up, the build and the JIT's work cancel, the loop remains.
 *
 * <p>Arguments: {@code structure n warmupLookups measuredLookups (negative|positive) [bitsPerKey]}.
 * For example {@code fastfilter-blocked-bloom 1000000 4000000 10000000 negative}.
 */
public final class LookupCountDriver {
  private LookupCountDriver() {}

  private static final int STREAM = 1 << 20;

  public static void main(String[] args) {
    if (args.length < 5) {
      throw new IllegalArgumentException(
          "usage: structure n warmupLookups measuredLookups (negative|positive) [bitsPerKey]");
    }
    String structure = args[0];
    int n = Integer.parseInt(args[1]);
    long warmup = Long.parseLong(args[2]);
    long measured = Long.parseLong(args[3]);
    boolean negative = args[4].equals("negative");
    double bitsPerKey = args.length > 5 ? Double.parseDouble(args[5]) : 10.0;
    Workload workload = Workload.create(n, Workload.DEFAULT_SEED);
    Membership m = Structures.byName(structure).build(workload.keys(), bitsPerKey);
    long[] stream = negative ? workload.absentQueries(STREAM) : workload.presentQueries(STREAM);
    long hits = loop(m, stream, warmup);
    System.out.println("warm-up hits " + hits);
    boolean pause = Boolean.getBoolean("sieve.lookupcount.pause");
    handshake(pause, "READY");
    hits = loop(m, stream, measured);
    handshake(pause, "DONE");
    System.out.println(
        structure + " n=" + n + " " + args[4] + " lookups=" + measured + " hits=" + hits);
  }

  /**
   * With {@code -Dsieve.lookupcount.pause=true}: prints {@code word} and waits for a line on
   * standard input, so a script can switch callgrind's collection on before the measured lookups
   * ({@code callgrind_control -i on}, with {@code valgrind --instr-atstart=no}) and off after.
   */
  private static void handshake(boolean pause, String word) {
    if (!pause) {
      return;
    }
    System.out.println(word);
    System.out.flush();
    try {
      while (true) {
        int c = System.in.read();
        if (c < 0 || c == '\n') {
          return;
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static long loop(Membership m, long[] stream, long lookups) {
    long hits = 0;
    int cursor = 0;
    for (long done = 0; done < lookups; done += Membership.BATCH) {
      hits += m.mayContainBatch(stream, cursor, Membership.BATCH);
      cursor = (cursor + Membership.BATCH) & (STREAM - 1);
    }
    return hits;
  }
}
