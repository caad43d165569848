package dev.sieve.bloom;

import dev.sieve.internal.AtomicBits;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.Schemes;

/**
 * The probe and add loops of {@link BlockedBloomFilter} over raw storage, heap ({@code long[]}) and
 * wrapped ({@link LongSegments}) side by side: pure static math, as RocksDB's {@code
 * FastLocalBloomImpl} in util/bloom_impl.h is, with the filter (sizing, bytes, key count) around
 * it. Static methods only, so a query inlines them into its own loop. Beside them, the cold counts
 * over the blocks (the key estimate, the FPR from the bits, saturation) read {@link BloomWords}.
 *
 * <h2>The idea</h2>
 *
 * A standard Bloom filter's {@code k} probes land in {@code k} random cache lines, so a query can
 * cost {@code k} cache misses. This filter first picks one 512-bit (64-byte) block per key and runs
 * a small Bloom filter inside it, so every add and query touches exactly one cache line.
 *
 * <h2>The layout (RocksDB util/bloom_impl.h, FastLocalBloomImpl)</h2>
 *
 * <ul>
 *   <li>The 64-bit key hash is split into {@code h1} (lower 32 bits) and {@code h2} (upper 32).
 *   <li>The block is {@code FastRange32(h1, numBlocks) = (h1 · numBlocks) >>> 32}: a multiply in
 *       place of a modulo, uniform over any number of blocks ({@link #blockBase}).
 *   <li>Probe {@code i} sets or tests bit {@code h >>> 23} (the top 9 bits, 0..511) of the block,
 *       where {@code h = h2 · 0x9e3779b9^i} (32-bit wrap-around, {@link #GOLDEN32}): byte {@code
 *       pos >>> 3}, bit {@code pos & 7}. The block choice uses {@code h1} only and the probes
 *       {@code h2} only: if they shared bits, the keys of one block would also share probe patterns
 *       and the filter's FPR would rise.
 * </ul>
 *
 * In memory the data is a {@code long[]} whose little-endian bytes are RocksDB's bytes, so bit
 * {@code pos} of block {@code b} is bit {@code pos & 63} of word {@code 8b + (pos >>> 6)}. (The
 * bytes on disk and the trailer are {@link BlockedBloomForm}'s.)
 *
 * <h2>The math and the trade-off</h2>
 *
 * The number of keys per block is Poisson, and crowded blocks raise the FPR above the standard
 * Bloom rate: RocksDB's {@link dev.sieve.math.BloomMath#cacheLocalFpRate} model gives 0.95% at 10
 * bits/key and 6 probes against a standard filter's 0.84%, a 1.13× tax for one cache miss instead
 * of up to six. The 64-bit key hash adds its own tiny collision rate ({@link
 * dev.sieve.math.BloomMath#fastLocalBloomFpRate}). The space cost stays Bloom's: about 1.44× the
 * information floor and a little more. RocksDB's probe counts (e.g. 6 at 10 bits/key, 9 at 16) are
 * lower than a standard Bloom filter's optimum because a crowded block is hurt more by extra
 * probes.
 *
 * <h2>The probe forms</h2>
 *
 * The answers are identical in every form; only the speed differs. The straight-line forms take
 * probe {@code i}'s hash as {@code h2 · GOLDEN32^i}, one multiply by a constant power ({@link
 * #GOLDEN32_2} ...; multiplication mod 2^32 associates, so the bits are RocksDB's), not as a chain
 * of {@code i} dependent multiplies: the probes of one key issue together. A heap query takes
 * {@link #allProbes} (ANDs every probe: no mispredicted exit for absent keys, best in cache; {@link
 * #all6} for RocksDB's six probes at 10 bits/key, straight-line) for a filter of at most {@link
 * #BRANCH_FREE_MAX_BYTES}, and {@link #early6} (unrolled, exits at the first clear bit) or {@link
 * #earlyLoop} above, where the early exit lets the core run ahead into the next lookups past a few
 * MiB (TLB misses, L3); {@link #upTo8} (straight-line) is the scalar side of the SIMD gate, and the
 * SIMD line test itself is {@link VectorLineProbe}. These are the measured winners of
 * docs/journal.md; the other forms measured there (a hybrid that branches on the first probe only,
 * the plain loop at every size) live in sieve-bench ({@code dev.sieve.bench.ProbeForms}, script
 * {@code probe-forms.sh}). Wrapped storage has one form, {@link #earlyLoop(LongSegments, int, int,
 * int)}: one loop over a storage interface was measurably slower on heap queries, so each storage
 * keeps its own loop.
 *
 * <p>Reference: P. Dillinger, RocksDB util/bloom_impl.h and table/block_based/filter_policy.cc;
 * Putze, Sanders, Singler, "Cache-, Hash- and Space-Efficient Bloom Filters" (2007).
 */
final class BlockedBloomKernel {

  /** Longs per 64-byte block. */
  static final int WORDS_PER_BLOCK = BlockedBloomFilter.BLOCK_BYTES / Long.BYTES;

  /** The multiplier from one probe's 32-bit hash to the next: {@code 0x9e3779b9}. */
  static final int GOLDEN32 = 0x9e3779b9;

  // Probe i's hash is h2 · GOLDEN32^i (mod 2^32): multiplication mod 2^32 is associative, so each
  // probe's hash is one multiply of h2 by a constant power, independent of the other probes,
  // instead of a chain of i dependent multiplies (3-4 cycles each). The same bits, a shorter
  // critical path: the six probes of one key issue together. GOLDEN32_i = 0x9e3779b9^i mod 2^32
  // (checked in ProbeFormsTest).
  static final int GOLDEN32_2 = 0xe35e67b1;
  static final int GOLDEN32_3 = 0x734297e9;
  static final int GOLDEN32_4 = 0x35fbe861;
  static final int GOLDEN32_5 = 0xdeb7c719;
  static final int GOLDEN32_6 = 0x0448b211;
  static final int GOLDEN32_7 = 0x3459b749;

  private BlockedBloomKernel() {}

  // ---------------------------------------------------------------- which probe form runs

  /** The largest filter a heap query tests branch-free ({@link #allProbes}): 4 MiB of data. */
  static final long BRANCH_FREE_MAX_BYTES = 4L << 20;

  /**
   * {@link #BRANCH_FREE_MAX_BYTES} in blocks: a filter this small stays in cache, where testing
   * every probe beats an early exit's mispredicted branch.
   */
  static final int BRANCH_FREE_MAX_BLOCKS =
      (int) (BRANCH_FREE_MAX_BYTES / BlockedBloomFilter.BLOCK_BYTES);

  /**
   * Whether heap-resident queries (single and batch) may run the SIMD line test of {@link
   * VectorLineProbe}: the module {@code jdk.incubator.vector} is readable ({@link
   * VectorGate#MODULE_READABLE}; no incubator class is loaded for it). They run it once {@link
   * VectorGate#BLOCKED_BLOOM} is open, the scalar probe before.
   */
  static final boolean VECTOR_PROBE = VectorGate.MODULE_READABLE;

  /**
   * Whether a heap batch of {@code len} lookups runs the SIMD line test: {@link #VECTOR_PROBE} and
   * the gate open. The gate counts batch lookups too ({@link VectorGate#openAfter}), so a
   * batch-only workload warms it.
   */
  static boolean vectorBatch(int len) {
    return VECTOR_PROBE && (VectorGate.UNGATED || VectorGate.BLOCKED_BLOOM.openAfter(len));
  }

  /** The first word of the key's block: {@code FastRange32(h1, numBlocks) · 8}. */
  static int blockBase(long hash64, int numBlocks) {
    long block = ((hash64 & 0xFFFFFFFFL) * numBlocks) >>> 32;
    return (int) block * WORDS_PER_BLOCK;
  }

  // ---------------------------------------------------------------- probes, heap

  /**
   * RocksDB's six probes (10 bits/key) without a loop, a branch or a multiply chain: bit 0 is set
   * iff all six probe bits are set. Probe {@code i} is bit {@code (h · GOLDEN32^i) >>> 23} of the
   * block: word {@code base + (x >>> 29)} (the top 3 of those 9 bits), bit {@code x >>> 23} (Java
   * takes a long shift's count mod 64, so the low 6 of the 9 bits). Each probe is one multiply, two
   * shifts, one load and one AND into the accumulator; the six are independent, so they overlap.
   */
  static long all6(long[] w, int base, int h) {
    int h1 = h * GOLDEN32;
    int h2 = h * GOLDEN32_2;
    int h3 = h * GOLDEN32_3;
    int h4 = h * GOLDEN32_4;
    int h5 = h * GOLDEN32_5;
    long all = w[base + (h >>> 29)] >>> (h >>> 23);
    all &= w[base + (h1 >>> 29)] >>> (h1 >>> 23);
    all &= w[base + (h2 >>> 29)] >>> (h2 >>> 23);
    all &= w[base + (h3 >>> 29)] >>> (h3 >>> 23);
    all &= w[base + (h4 >>> 29)] >>> (h4 >>> 23);
    all &= w[base + (h5 >>> 29)] >>> (h5 >>> 23);
    return all;
  }

  /**
   * Bit 0 is set iff all {@code numProbes} probe bits from {@code h} on are set, for any probe
   * count: {@link #all6} for six, else the probes two at a time (two independent multiply chains by
   * {@code GOLDEN32^2}, one from {@code h}, one from {@code h · GOLDEN32}), then the odd one.
   */
  static long allProbes(long[] w, int base, int h, int numProbes) {
    if (numProbes == 6) {
      return all6(w, base, h);
    }
    long all = 1;
    int even = h;
    int odd = h * GOLDEN32;
    int i = 0;
    for (; i + 1 < numProbes; i += 2) {
      all &=
          (w[base + (even >>> 29)] >>> (even >>> 23)) & (w[base + (odd >>> 29)] >>> (odd >>> 23));
      even *= GOLDEN32_2;
      odd *= GOLDEN32_2;
    }
    if (i < numProbes) {
      all &= w[base + (even >>> 29)] >>> (even >>> 23);
    }
    return all;
  }

  /**
   * Six probes, unrolled, exit on a clear bit; each probe's hash is {@code h} times its own power
   * of {@link #GOLDEN32}, so no probe's position waits for the one before.
   */
  static boolean early6(long[] w, int base, int h) {
    if ((w[base + (h >>> 29)] & (1L << (h >>> 23))) == 0) {
      return false;
    }
    int x = h * GOLDEN32;
    if ((w[base + (x >>> 29)] & (1L << (x >>> 23))) == 0) {
      return false;
    }
    x = h * GOLDEN32_2;
    if ((w[base + (x >>> 29)] & (1L << (x >>> 23))) == 0) {
      return false;
    }
    x = h * GOLDEN32_3;
    if ((w[base + (x >>> 29)] & (1L << (x >>> 23))) == 0) {
      return false;
    }
    x = h * GOLDEN32_4;
    if ((w[base + (x >>> 29)] & (1L << (x >>> 23))) == 0) {
      return false;
    }
    x = h * GOLDEN32_5;
    return (w[base + (x >>> 29)] & (1L << (x >>> 23))) != 0;
  }

  /**
   * The scalar line test for 1 to 8 probes without a loop or a branch: all eight positions are
   * tested and those from {@code numProbes} on count as set. The scalar side of the SIMD gate: a
   * caller's loop is compiled with this beside the vector test once the gate has opened (both sides
   * were taken in its profile), and an inner loop there (the {@code allProbes} or {@code earlyLoop}
   * loop) or a call made the caller's loop a non-innermost loop or one with a call, which C2
   * optimizes less: single lookups measured markedly slower than without the gate
   * (docs/journal.md).
   */
  static boolean upTo8(long[] w, int base, int h, int numProbes) {
    int h1 = h * GOLDEN32;
    int h2 = h * GOLDEN32_2;
    int h3 = h * GOLDEN32_3;
    int h4 = h * GOLDEN32_4;
    int h5 = h * GOLDEN32_5;
    int h6 = h * GOLDEN32_6;
    int h7 = h * GOLDEN32_7;
    long set = w[base + (h >>> 29)] >>> (h >>> 23) & 1;
    set |= (w[base + (h1 >>> 29)] >>> (h1 >>> 23) & 1) << 1;
    set |= (w[base + (h2 >>> 29)] >>> (h2 >>> 23) & 1) << 2;
    set |= (w[base + (h3 >>> 29)] >>> (h3 >>> 23) & 1) << 3;
    set |= (w[base + (h4 >>> 29)] >>> (h4 >>> 23) & 1) << 4;
    set |= (w[base + (h5 >>> 29)] >>> (h5 >>> 23) & 1) << 5;
    set |= (w[base + (h6 >>> 29)] >>> (h6 >>> 23) & 1) << 6;
    set |= (w[base + (h7 >>> 29)] >>> (h7 >>> 23) & 1) << 7;
    long unused = 0xFFL << numProbes; // the lanes numProbes..7 (numProbes <= 8)
    return ((set | unused) & 0xFF) == 0xFF;
  }

  /** The plain early-exit loop: false at the first clear probe bit. */
  static boolean earlyLoop(long[] w, int base, int h, int numProbes) {
    for (int i = 0; i < numProbes; i++) {
      int bitpos = h >>> 23;
      if ((w[base + (bitpos >>> 6)] & (1L << bitpos)) == 0) {
        return false;
      }
      h *= GOLDEN32;
    }
    return true;
  }

  // ---------------------------------------------------------------- probes, wrapped

  /** {@link #earlyLoop(long[], int, int, int)} over wrapped (possibly memory-mapped) data. */
  static boolean earlyLoop(LongSegments data, int base, int h, int numProbes) {
    for (int i = 0; i < numProbes; i++) {
      int bitpos = h >>> 23;
      if ((data.get(base + (bitpos >>> 6)) & (1L << bitpos)) == 0) {
        return false;
      }
      h *= GOLDEN32;
    }
    return true;
  }

  /**
   * {@link BlockedBloomFilter#mayContainHash} off the heap: over wrapped data ({@code null} for an
   * empty filter), "absent" for a filter of zero blocks (built from zero keys).
   */
  static boolean wrappedOrEmpty(LongSegments data, int numBlocks, int numProbes, long hash64) {
    if (numBlocks == 0) {
      return false;
    }
    return earlyLoop(data, blockBase(hash64, numBlocks), (int) (hash64 >>> 32), numProbes);
  }

  // ---------------------------------------------------------------- adds (heap only)

  /**
   * {@link BlockedBloomFilter#addHash}: sets the key's {@code numProbes} probe bits on atomically
   * (safe beside concurrent adds and queries), counts the key in {@code data} if any bit changed,
   * and returns whether one did. {@code words} is {@code data}'s heap array, {@code null} when it
   * wraps buffers (read-only).
   */
  static boolean addHash(long[] words, BloomWords data, int numBlocks, int numProbes, long hash64) {
    if (numBlocks == 0 || words == null) {
      throw numBlocks == 0
          ? new IllegalStateException(
              "cannot add to a filter of zero blocks (built from zero keys)")
          : new UnsupportedOperationException("a filter wrapping a buffer is read-only");
    }
    int base = blockBase(hash64, numBlocks);
    int h = (int) (hash64 >>> 32);
    boolean changed = false;
    for (int i = 0; i < numProbes; i++) {
      int bitpos = h >>> 23;
      changed |= AtomicBits.setBit(words, base + (bitpos >>> 6), bitpos & 63);
      h *= GOLDEN32;
    }
    if (changed) {
      data.countKey();
    }
    return changed;
  }

  /**
   * Adds {@code hashes[0, count)} with plain writes, for a builder before the filter is published.
   * A repeated hash sets the bits it set before, so repeats need no check here: the builders count
   * RocksDB's consecutive de-duplication for the key count and the size only. RocksDB's six probes
   * (10 bits/key) run straight-line ({@link #addAll6Plain}).
   */
  static void addAllPlain(long[] w, int numBlocks, int numProbes, long[] hashes, int count) {
    if (numProbes == 6) {
      addAll6Plain(w, numBlocks, hashes, count);
      return;
    }
    for (int i = 0; i < count; i++) {
      long hash64 = hashes[i];
      int base = blockBase(hash64, numBlocks);
      int h = (int) (hash64 >>> 32);
      for (int p = 0; p < numProbes; p++) {
        int bitpos = h >>> 23;
        w[base + (bitpos >>> 6)] |= 1L << bitpos;
        h *= GOLDEN32;
      }
    }
  }

  /**
   * {@link #addAllPlain} for six probes: each probe's hash is one multiply of {@code h} by its own
   * power of {@link #GOLDEN32} (as in {@link #all6}), so the six positions of a key are computed
   * together and no probe's write waits on a multiply chain; with no inner loop, the adds of
   * neighbouring keys overlap more.
   */
  private static void addAll6Plain(long[] w, int numBlocks, long[] hashes, int count) {
    long[] bit = TwoWordBloomKernel.BIT; // 1L << i: one load in place of a variable shift
    for (int i = 0; i < count; i++) {
      long hash64 = hashes[i];
      int base = blockBase(hash64, numBlocks);
      int h = (int) (hash64 >>> 32);
      int h1 = h * GOLDEN32;
      int h2 = h * GOLDEN32_2;
      int h3 = h * GOLDEN32_3;
      int h4 = h * GOLDEN32_4;
      int h5 = h * GOLDEN32_5;
      w[base + (h >>> 29)] |= bit[(h >>> 23) & 63];
      w[base + (h1 >>> 29)] |= bit[(h1 >>> 23) & 63];
      w[base + (h2 >>> 29)] |= bit[(h2 >>> 23) & 63];
      w[base + (h3 >>> 29)] |= bit[(h3 >>> 23) & 63];
      w[base + (h4 >>> 29)] |= bit[(h4 >>> 23) & 63];
      w[base + (h5 >>> 29)] |= bit[(h5 >>> 23) & 63];
    }
  }

  /**
   * {@link BlockedBloomFilter#union}: checks (mutable, the same key scheme and shape), then ORs the
   * words ({@link BloomWords#union}: the key count after is the larger count or the estimate).
   */
  static void union(BlockedBloomFilter f, BlockedBloomFilter other) {
    f.data().checkMutable();
    Schemes.checkSame(f, other);
    BloomWords.checkSameShape(
        other.numBlocks() == f.numBlocks() && other.numProbes() == f.numProbes(),
        "cannot union filters of different shapes: ",
        f.sizeInBytes() + " bytes/" + f.numProbes() + " probes",
        other.sizeInBytes() + " bytes/" + other.numProbes() + " probes");
    f.data().union(other.data(), f::approximateElementCount);
  }
}
