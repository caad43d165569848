package dev.sieve.bloom;

import dev.sieve.Filter;
import java.util.SplittableRandom;

/**
 * The child process of {@link ColdStartCliffTest}: in a fresh JVM, builds a filter of {@code n}
 * random keys (seed 20), then times its first lookups of absent and present keys, one line per
 * checkpoint: {@code lookups <count> <nanos>}, then {@code gate <state> <rounds> <warm-up ns>}.
 *
 * <p>Arguments: {@code blocked|split-block}, {@code n}, then the checkpoints (ascending counts).
 * With {@code -Dsieve.test.awaitGate=true} it first waits for the filter's vector gate to open,
 * with {@code settled} for it to open or give up. With {@code -Dsieve.test.awaitGateAfter=true} it
 * waits, after the lookups, for a warm-up they started to settle (without starting one), and then
 * prints the gate line. With {@code -Dsieve.test.batch=true} the lookups go through the batch API,
 * 1,000 keys a call, untimed.
 */
public final class ColdLookupMain {
  private ColdLookupMain() {}

  public static void main(String[] args) throws InterruptedException {
    String kind = args[0];
    int n = Integer.parseInt(args[1]);
    SplittableRandom random = new SplittableRandom(20);
    long[] keys = random.longs(n).toArray();
    Filter filter;
    VectorGate gate;
    if (kind.equals("blocked")) {
      filter = BlockedBloomFilter.builder().bitsPerKey(10).build(keys);
      gate = VectorGate.BLOCKED_BLOOM;
    } else {
      filter = SplitBlockBloomFilter.builder().bitsPerKey(10).build(keys);
      gate = VectorGate.SPLIT_BLOCK;
    }
    long[] queries = new long[Integer.parseInt(args[args.length - 1])];
    for (int i = 0; i < queries.length; i++) {
      queries[i] = (i & 1) == 0 ? keys[random.nextInt(n)] : random.nextLong();
    }
    String await = System.getProperty("sieve.test.awaitGate", "false");
    if (await.equals("true") && !gate.awaitOpen(60_000)) {
      throw new AssertionError("the gate did not open: " + gate);
    }
    if (await.equals("settled")) {
      gate.awaitOpen(60_000); // open or given up
    }
    StringBuilder out = new StringBuilder();
    int maybes = 0;
    int done = 0;
    if (Boolean.getBoolean("sieve.test.batch")) { // the batch API, 1,000 keys a call
      long[] bits = new long[16];
      for (int a = 2; a < args.length; a++) {
        for (int until = Integer.parseInt(args[a]); done < until; done += 1000) {
          int len = Math.min(1000, until - done);
          maybes += filter.mayContainBatch(queries, done, len, bits);
          for (int i = 0; i < len; i += 2) {
            if ((bits[i >>> 6] >>> i & 1) == 0) {
              throw new AssertionError("false negative at lookup " + (done + i));
            }
          }
        }
      }
    }
    long start = System.nanoTime();
    for (int a = 2; a < args.length; a++) {
      int until = Integer.parseInt(args[a]);
      for (; done < until; done++) {
        boolean maybe = filter.mayContain(queries[done]);
        if ((done & 1) == 0 && !maybe) {
          throw new AssertionError("false negative at lookup " + done);
        }
        maybes += maybe ? 1 : 0;
      }
      long nanos = System.nanoTime() - start;
      out.append("lookups ").append(until).append(' ').append(nanos).append('\n');
    }
    if (Boolean.getBoolean("sieve.test.awaitGateAfter")) {
      gate.awaitSettled(60_000);
    }
    out.append("gate ")
        .append(gate.state())
        .append(' ')
        .append(gate.rounds())
        .append(' ')
        .append(gate.warmupNanos)
        .append('\n');
    out.append("maybes ").append(maybes).append('\n');
    System.out.print(out);
  }
}
