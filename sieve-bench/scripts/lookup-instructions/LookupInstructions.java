// Callgrind driver of lookup-instructions.sh (not built by Maven): builds a 10 bits/key blocked Bloom
// filter (or FastFilter's BlockedBloom) over n random keys (seed 42), runs warm-up lookups twice
// over a 2^20-key query stream (seed 7; absent keys, or "pos" for added ones), then the measured
// lookups between two handshakes on stdin, where the script turns callgrind's counting on and off.
import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.bloom.BlockedBloomFilter;
import java.util.SplittableRandom;

/** Callgrind driver: W warm-up lookups, then M measured lookups, over a 2^20-key stream. */
public final class LookupInstructions {
  interface M { boolean has(long k); }

  static int run(M m, long[] q, long count) {
    int hits = 0;
    int mask = q.length - 1;
    for (long i = 0; i < count; i++) {
      if (m.has(q[(int) i & mask])) hits++;
    }
    return hits;
  }

  static void handshake(String what) {
    System.out.println(what);
    System.out.flush();
    try {
      System.in.read();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static int runBatch(Filter f, long[] q, long[] bits, long count) {
    int hits = 0;
    int c = 0;
    for (long i = 0; i < count; i += 1024) {
      hits += f.mayContainBatch(q, c, 1024, bits);
      c = (c + 1024) & (q.length - 1);
    }
    return hits;
  }

  public static void main(String[] a) {
    String which = a[0];
    int n = Integer.parseInt(a[1]);
    long warm = Long.parseLong(a[2]);
    long meas = Long.parseLong(a[3]);
    boolean pos = a.length > 4 && a[4].equals("pos");
    SplittableRandom r = new SplittableRandom(42);
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) keys[i] = r.nextLong();
    long[] q = new long[1 << 20];
    SplittableRandom r2 = new SplittableRandom(7);
    for (int i = 0; i < q.length; i++) q[i] = pos ? keys[r2.nextInt(n)] : r2.nextLong();
    if (which.equals("batch") || which.equals("fasthash-batch")) {
      Filter f = which.equals("batch")
          ? BlockedBloomFilter.builder().bitsPerKey(10).build(keys)
          : BlockedBloomFilter.builder().bitsPerKey(10).keyScheme(KeyScheme.MIX64).build(keys);
      long[] bits = new long[16];
      int h = runBatch(f, q, bits, warm);
      h += runBatch(f, q, bits, warm);
      handshake("READY");
      h += runBatch(f, q, bits, meas);
      handshake("DONE");
      System.out.println(which + " hits " + h);
      return;
    }
    M m;
    switch (which) {
      case "sieve": { Filter f = BlockedBloomFilter.builder().bitsPerKey(10).build(keys); m = f::mayContain; break; }
      case "prehashed": { Filter f = BlockedBloomFilter.builder().bitsPerKey(10).buildFromHashes(keys); m = f::mayContainHash; break; }
      case "fasthash": { Filter f = BlockedBloomFilter.builder().bitsPerKey(10).keyScheme(KeyScheme.MIX64).build(keys); m = f::mayContain; break; }
      case "ff": { org.fastfilter.utils.Hash.setSeed(1); org.fastfilter.Filter f = org.fastfilter.bloom.BlockedBloom.construct(keys, 10); m = f::mayContain; break; }
      default: throw new IllegalArgumentException(which);
    }
    int h = run(m, q, warm);
    h += run(m, q, warm);
    handshake("READY");
    h += run(m, q, meas);
    handshake("DONE");
    System.out.println(which + " hits " + h);
  }
}
