package dev.sieve.bloom;

import java.util.Arrays;

/**
 * The stages of a {@link ScalableBloomFilter} as one immutable snapshot, oldest first, with their
 * heap data, block counts and probes laid out for the query ({@code words == null} when any stage
 * is wrapped); and the query kernels over them, static, newest stage first.
 *
 * <h2>The query forms ({@link #QUERY_FORM})</h2>
 *
 * All three give the same answers. {@link #loopMayContain} (the default) asks each stage's own
 * lookup in turn. {@link #twoPassMayContain} first loads, for every stage, the word of the key's
 * first probe (independent loads, so the misses of all stages are in flight at once) and then tests
 * the other probes of the stages whose first probe was set. {@link #branchFreeMayContain} ANDs
 * every probe of every stage. Measured at 10^8 keys (17 stages), each interleaved round by round
 * with a blocked Bloom filter sized right for the keys (medians of 15 rounds of 2^20 lookups, a
 * shared machine): the loop 9.5× the right-sized filter's time for absent keys and 5.8× for present
 * ones; two-pass 10.8× and 6.4×; branch-free 19× and 15×. At 10^6 keys (10 stages, in cache) all
 * three cost about 10× for absent keys: a lookup per stage is the price of the chain (README,
 * "Filters that grow").
 */
final class ScalableBloomChain {
  final ScalableBloomStage[] stages;
  final long[][] words;
  final long[] blocks;
  final int[] probes;

  ScalableBloomChain(ScalableBloomStage[] stages) {
    this.stages = stages;
    int m = stages.length;
    long[][] w = new long[m][];
    blocks = new long[m];
    probes = new int[m];
    boolean heap = true;
    for (int i = 0; i < m; i++) {
      w[i] = stages[i].filter.heapDataOrNull();
      heap &= w[i] != null;
      blocks[i] = stages[i].filter.numBlocks();
      probes[i] = stages[i].filter.numProbes();
    }
    words = heap ? w : null;
  }

  /** This chain with {@code next} opened after its newest stage. */
  ScalableBloomChain with(ScalableBloomStage next) {
    int m = stages.length;
    ScalableBloomStage[] longer = Arrays.copyOf(stages, m + 1);
    longer[m] = next;
    return new ScalableBloomChain(longer);
  }

  /** The sum of the stages' key counts. */
  long numKeys() {
    long n = 0;
    for (ScalableBloomStage s : stages) {
      n += s.keys();
    }
    return n;
  }

  /** The data bits of all stages. */
  long sizeInBits() {
    long bits = 0;
    for (ScalableBloomStage s : stages) {
      bits += s.filter.sizeInBits();
    }
    return bits;
  }

  /** {@code 1 − Π(1 − p_i)} over the stages' modelled rates {@code p_i}. */
  double modelledFpRate() {
    double notFp = 1.0;
    for (ScalableBloomStage s : stages) {
      notFp *= 1.0 - s.modelledFpRate();
    }
    return 1.0 - notFp;
  }

  /** The stages, each with its key count read once now, sharing their bits. */
  ScalableBloomStage[] frozen() {
    ScalableBloomStage[] out = new ScalableBloomStage[stages.length];
    for (int i = 0; i < stages.length; i++) {
      out[i] = stages[i].frozen();
    }
    return out;
  }

  /** Independent heap copies of the stages. */
  ScalableBloomStage[] copied() {
    ScalableBloomStage[] out = new ScalableBloomStage[stages.length];
    for (int i = 0; i < stages.length; i++) {
      out[i] = stages[i].copy();
    }
    return out;
  }

  // ---------------------------------------------------------------- the query-form switch

  /**
   * The form of the query, for measurement only (the answers are identical): {@code loop} (the
   * default), {@code twopass} or {@code branchfree}. Read once from the system property {@code
   * sieve.scalable.queryForm}, so the JIT folds the choice in {@link
   * ScalableBloomFilter#mayContainHash} away.
   */
  static final int QUERY_FORM = queryForm(System.getProperty("sieve.scalable.queryForm", "loop"));

  static final int FORM_TWO_PASS = 0;
  static final int FORM_BRANCH_FREE = 1;
  static final int FORM_LOOP = 2;

  static int queryForm(String name) {
    return switch (name) {
      case "twopass" -> FORM_TWO_PASS;
      case "branchfree" -> FORM_BRANCH_FREE;
      case "loop" -> FORM_LOOP;
      default ->
          throw new IllegalArgumentException(
              "sieve.scalable.queryForm must be twopass, branchfree or loop, got " + name);
    };
  }

  // ---------------------------------------------------------------- kernels

  /** The {@code loop} form: each stage's own lookup, newest first; any chain, heap or wrapped. */
  static boolean loopMayContain(ScalableBloomChain c, long hash64) {
    ScalableBloomStage[] stages = c.stages;
    for (int i = stages.length - 1; i >= 0; i--) {
      if (stages[i].filter.mayContainHash(hash64)) {
        return true;
      }
    }
    return false;
  }

  /** The {@code twopass} form; a heap chain only ({@code c.words != null}). */
  static boolean twoPassMayContain(ScalableBloomChain c, long hash64) {
    long[][] words = c.words;
    long low = hash64 & 0xFFFFFFFFL;
    int h = (int) (hash64 >>> 32);
    int p = h >>> 23;
    int firstWord = p >>> 6;
    long[] blocks = c.blocks;
    int m = words.length;
    long first = 0;
    for (int i = m - 1; i >= 0; i--) {
      int base = (int) ((low * blocks[i]) >>> 32) << 3;
      first |= ((words[i][base + firstWord] >>> p) & 1) << i;
    }
    if (first == 0) {
      return false;
    }
    int next = h * BlockedBloomKernel.GOLDEN32;
    int[] probes = c.probes;
    for (int i = m - 1; i >= 0; i--) {
      if ((first >>> i & 1) != 0) {
        int base = (int) ((low * blocks[i]) >>> 32) << 3;
        if ((BlockedBloomKernel.branchFree(words[i], base, next, probes[i] - 1) & 1) != 0) {
          return true;
        }
      }
    }
    return false;
  }

  /** The {@code branchfree} form; a heap chain only ({@code c.words != null}). */
  static boolean branchFreeMayContain(ScalableBloomChain c, long hash64) {
    long[][] words = c.words;
    long[] blocks = c.blocks;
    int[] probes = c.probes;
    long low = hash64 & 0xFFFFFFFFL;
    int h = (int) (hash64 >>> 32);
    long any = 0;
    for (int i = words.length - 1; i >= 0; i--) {
      int base = (int) ((low * blocks[i]) >>> 32) << 3;
      any |= BlockedBloomKernel.branchFree(words[i], base, h, probes[i]);
    }
    return (any & 1) != 0;
  }
}
