package dev.sieve.ribbon;

import dev.sieve.internal.base.LongList;
import java.util.Objects;
import java.util.Optional;

/**
 * The banding of a Standard128Ribbon build: on-the-fly Gaussian elimination over GF(2) into an
 * upper-triangular band of 128-bit coefficient rows, then back-substitution into RocksDB's
 * interleaved solution layout.
 *
 * <h2>Banding (RocksDB util/ribbon_alg.h, {@code BandingAdd})</h2>
 *
 * A key contributes one equation: its coefficient row {@code c} (128 bits, bit 0 always 1) placed
 * at its start slot {@code s}, and its 32-bit result row {@code r}: {@code XOR over j of c_j · S[s
 * + j] = r}, one such equation per result column. Slot {@code i} of the band holds at most one row
 * whose leading 1 is at column {@code i}. To add a row at {@code i}: if slot {@code i} is empty,
 * store it there (done); else XOR the stored row into it, which cancels the leading 1, shift to the
 * new lowest set bit and continue further right. If the coefficients cancel completely the equation
 * was a combination of stored ones: it is consistent (and adds nothing) exactly when its result
 * also cancels to 0, otherwise the system is singular for this seed. A duplicate key cancels to
 * {@code (0, 0)}, so duplicates never make the system singular. Like insertion into a
 * linear-probing hash table, each key is finished when added, in any order: the pivot set and the
 * solution with free variables set to 0 depend only on the set of equations, not on their order.
 *
 * <h2>Back-substitution (RocksDB {@code InterleavedBackSubst})</h2>
 *
 * From the last slot down, each column's solution bit at slot {@code i} is the parity of the stored
 * row at {@code i} against the solution bits already known for slots {@code i+1 .. i+127}, XOR the
 * stored result bit (empty slots are free and get 0). Keeping, per column, the last 128 solution
 * bits in one 128-bit register, a block's 128 bits of one column are exactly that register after
 * the block's 128 slots: it is stored as the block's segment for that column. Blocks below {@code
 * upperStartBlock} have one column fewer.
 *
 * <p>Rows are held as two {@code long}s per slot (low, high halves) plus an {@code int} result; a
 * build allocates these arrays once (cleared for each seed tried) and no per-key objects. Past
 * {@link #SORT_MIN_SLOTS} slots the keys are added in order of their start, which gives the same
 * band (see above) with sequential instead of random accesses.
 *
 * <p>The static {@link #solve}, {@link #solveGrowing} and {@link #build} turn a banding into a
 * {@link Standard128RibbonFilter}: RocksDB's seed search, Sieve's growing fallback and the
 * builder's build.
 */
final class RibbonBanding {

  private final int numSlots;
  private final int numStarts;

  /** Coefficient rows, two longs per slot: {@code [2i]} low 64 bits, {@code [2i+1]} high 64. */
  private final long[] coeff;

  private final int[] result;

  RibbonBanding(int numSlots) {
    if (numSlots < 2 * RibbonSizing.SLOTS_PER_BLOCK
        || numSlots % RibbonSizing.SLOTS_PER_BLOCK != 0) {
      throw new IllegalArgumentException(
          "number of slots must be a multiple of 128 and at least 256, got " + numSlots);
    }
    this.numSlots = numSlots;
    this.numStarts = numSlots - RibbonSizing.SLOTS_PER_BLOCK + 1;
    this.coeff = new long[2 * numSlots];
    this.result = new int[numSlots];
  }

  int numSlots() {
    return numSlots;
  }

  // ---------------------------------------------------------------- solving a filter

  /**
   * The Ribbon-only builder's filter ({@link Standard128RibbonFilterBuilder}): the hashes without
   * consecutive duplicates (RocksDB's {@code AddKey}), at RocksDB's size ({@link
   * RibbonSizing#numSlotsForKeys}), grown until a seed solves ({@link #solveGrowing}).
   */
  static Standard128RibbonFilter build(long[] hashes, int count, double oneInFpRate) {
    long[] entries = LongList.dedupConsecutive(hashes, count);
    int n = entries.length;
    if (n == 0) {
      return Standard128RibbonFilter.EMPTY;
    }
    if (n > RibbonSizing.MAX_RIBBON_ENTRIES) {
      throw new IllegalArgumentException(
          "a Standard128Ribbon filter holds at most "
              + RibbonSizing.MAX_RIBBON_ENTRIES
              + " keys (RocksDB builds Bloom above), got "
              + n);
    }
    return solveGrowing(entries, n, RibbonSizing.numSlotsForKeys(n), oneInFpRate);
  }

  /**
   * Sieve's own final fallback, for the Ribbon-only builder: solve at {@code numSlots}; if all 256
   * seeds fail, grow by one block in eight and solve again, until a seed works.
   */
  static Standard128RibbonFilter solveGrowing(
      long[] entries, int n, int numSlots, double oneInFpRate) {
    int bias = (int) (entries[0] >>> 32);
    int firstSeed = (int) entries[0] & 255;
    for (; ; ) {
      long bytes = RibbonSizing.bytesForOneInFpRate(numSlots, oneInFpRate, bias);
      Standard128RibbonFilter f = solve(entries, n, numSlots, bytes, firstSeed);
      if (f != null) {
        return f;
      }
      int numBlocks = numSlots / RibbonSizing.SLOTS_PER_BLOCK;
      int grown = numBlocks + Math.max(1, numBlocks / 8);
      if (grown > RibbonSizing.MAX_BLOCKS) {
        throw new IllegalStateException(
            "no seed solves " + n + " keys in up to " + numBlocks + " blocks");
      }
      numSlots = grown * RibbonSizing.SLOTS_PER_BLOCK;
    }
  }

  /**
   * {@link Standard128RibbonFilter#solveRocksDb}: RocksDB's first seed ({@code lower32(first entry)
   * & 255}), after the checks of {@code n}.
   */
  static Optional<Standard128RibbonFilter> solveRocksDb(
      long[] entries, int n, int numSlots, long dataBytes) {
    Objects.checkFromIndexSize(0, n, entries.length);
    if (n < 1) {
      throw new IllegalArgumentException("at least one entry is needed, got " + n);
    }
    return Optional.ofNullable(solve(entries, n, numSlots, dataBytes, (int) entries[0] & 255));
  }

  /**
   * Solves for {@code numSlots} slots and {@code dataBytes} bytes of solution, trying ordinal seeds
   * from {@code firstSeed} on; {@code null} if all 256 fail.
   */
  static Standard128RibbonFilter solve(
      long[] hashes, int count, int numSlots, long dataBytes, int firstSeed) {
    RibbonBanding banding = new RibbonBanding(numSlots);
    int seed = banding.findSeedToSolve(hashes, count, firstSeed);
    if (seed < 0) {
      return null;
    }
    return fromBanding(banding, dataBytes, seed, count);
  }

  private static Standard128RibbonFilter fromBanding(
      RibbonBanding banding, long dataBytes, int seed, long numKeys) {
    int numBlocks = banding.numSlots() / RibbonSizing.SLOTS_PER_BLOCK;
    int numSegments = clampSegments(dataBytes / RibbonSizing.SEGMENT_BYTES, numBlocks);
    Standard128RibbonFilter shape =
        new Standard128RibbonFilter(new long[0], null, null, numBlocks, numSegments, seed, numKeys);
    long[] data =
        banding.backSubstitute(numSegments, shape.upperNumColumns(), shape.upperStartBlock());
    return new Standard128RibbonFilter(data, null, null, numBlocks, numSegments, seed, numKeys);
  }

  /** RocksDB's cap at 32 columns: extra segments are unused. */
  private static int clampSegments(long numSegments, int numBlocks) {
    long max = (long) numBlocks * RibbonSizing.MAX_COLUMNS;
    return (int) Math.min(numSegments, max);
  }

  // ---------------------------------------------------------------- banding

  void clear() {
    java.util.Arrays.fill(coeff, 0L);
    java.util.Arrays.fill(result, 0);
  }

  /**
   * Adds the key with 64-bit hash {@code hash64} under {@code rawSeed}.
   *
   * @return {@code false} if the key's equation contradicts those already added (the band is then
   *     unchanged)
   */
  boolean add(long hash64, int rawSeed) {
    return addRehashed(RibbonKernel.rehash(hash64, rawSeed));
  }

  /** Adds the key whose seeded hash ({@link RibbonKernel#rehash}) is {@code h}. */
  private boolean addRehashed(long h) {
    int i = RibbonKernel.start(h, numStarts);
    long a = h * RibbonKernel.COEFF_AND_RESULT_FACTOR;
    long lo = RibbonKernel.coeffLow(a);
    long hi = a;
    int rr = RibbonKernel.resultRow(a);
    final long[] coeff = this.coeff;
    for (; ; ) {
      int at = 2 * i;
      long slo = coeff[at];
      long shi = coeff[at + 1];
      if ((slo | shi) == 0) {
        coeff[at] = lo;
        coeff[at + 1] = hi;
        result[i] = rr;
        return true;
      }
      lo ^= slo;
      hi ^= shi;
      rr ^= result[i];
      int tz;
      if (lo != 0) {
        tz = Long.numberOfTrailingZeros(lo);
        lo = (lo >>> tz) | (tz == 0 ? 0 : hi << (64 - tz));
        hi >>>= tz;
      } else if (hi != 0) {
        tz = 64 + Long.numberOfTrailingZeros(hi);
        lo = hi >>> (tz - 64);
        hi = 0;
      } else {
        return rr == 0;
      }
      i += tz;
    }
  }

  /** {@link #insert}: the row was a combination of stored rows, consistent; nothing stored. */
  static final int REDUNDANT = -1;

  /** {@link #insert}: the row contradicts the stored rows; the band is unchanged. */
  static final int INCONSISTENT = -2;

  /**
   * Adds one equation given by its parts (for {@link BumpedRibbonFilter}, which hashes its own
   * way): coefficient row {@code (lo, hi)} with bit 0 of {@code lo} set, placed at {@code start},
   * and result row {@code rr}.
   *
   * @return the slot the reduced row was stored in, {@link #REDUNDANT} or {@link #INCONSISTENT}
   */
  int insert(int start, long lo, long hi, int rr) {
    int i = start;
    final long[] coeff = this.coeff;
    for (; ; ) {
      int at = 2 * i;
      long slo = coeff[at];
      long shi = coeff[at + 1];
      if ((slo | shi) == 0) {
        coeff[at] = lo;
        coeff[at + 1] = hi;
        result[i] = rr;
        return i;
      }
      lo ^= slo;
      hi ^= shi;
      rr ^= result[i];
      int tz;
      if (lo != 0) {
        tz = Long.numberOfTrailingZeros(lo);
        lo = (lo >>> tz) | (tz == 0 ? 0 : hi << (64 - tz));
        hi >>>= tz;
      } else if (hi != 0) {
        tz = 64 + Long.numberOfTrailingZeros(hi);
        lo = hi >>> (tz - 64);
        hi = 0;
      } else {
        return rr == 0 ? REDUNDANT : INCONSISTENT;
      }
      i += tz;
    }
  }

  /**
   * Removes the row stored at {@code slot}. Only the most recently stored rows may be removed, last
   * first (rows stored after a row may have been reduced by it).
   */
  void clearSlot(int slot) {
    coeff[2 * slot] = 0;
    coeff[2 * slot + 1] = 0;
    result[slot] = 0;
  }

  /**
   * Clears the band and adds the first {@code count} hashes under {@code rawSeed}.
   *
   * @return {@code false} as soon as one is inconsistent
   */
  boolean addAll(long[] hashes, int count, int rawSeed) {
    clear();
    for (int k = 0; k < count; k++) {
      if (!add(hashes[k], rawSeed)) {
        return false;
      }
    }
    return true;
  }

  /**
   * From this many slots on (a band of 1.25 MB and more, past the L2 cache), keys are added in
   * order of their start: the result is the same (the band does not depend on the order) and the
   * elimination walks the band sequentially instead of missing the cache on every key.
   */
  static final int SORT_MIN_SLOTS = 1 << 16;

  private static final int SORT_BITS = 16;

  /**
   * Puts the seeded hashes into {@code out} grouped by their top {@value #SORT_BITS} bits, which
   * orders them by start up to {@code numSlots / 2^16} slots (a counting sort; within a group the
   * order is arbitrary).
   */
  private static void sortByStart(
      long[] hashes, int count, int rawSeed, long[] out, int[] buckets) {
    java.util.Arrays.fill(buckets, 0);
    for (int k = 0; k < count; k++) {
      buckets[(int) (RibbonKernel.rehash(hashes[k], rawSeed) >>> (64 - SORT_BITS))]++;
    }
    int sum = 0;
    for (int b = 0; b < buckets.length; b++) {
      int c = buckets[b];
      buckets[b] = sum;
      sum += c;
    }
    for (int k = 0; k < count; k++) {
      long h = RibbonKernel.rehash(hashes[k], rawSeed);
      out[buckets[(int) (h >>> (64 - SORT_BITS))]++] = h;
    }
  }

  private boolean addAllRehashed(long[] rehashed, int count) {
    clear();
    for (int k = 0; k < count; k++) {
      if (!addRehashed(rehashed[k])) {
        return false;
      }
    }
    return true;
  }

  /**
   * Tries ordinal seeds {@code firstSeed, firstSeed + 1, ...} (mod 256), as RocksDB's {@code
   * ResetAndFindSeedToSolve} with mask 255 does, until the keys band without contradiction.
   *
   * @return the ordinal seed that worked, or {@code -1} after all 256 failed
   */
  int findSeedToSolve(long[] hashes, int count, int firstSeed) {
    long[] sorted = numSlots >= SORT_MIN_SLOTS ? new long[count] : null;
    int[] buckets = sorted != null ? new int[1 << SORT_BITS] : null;
    int seed = firstSeed & 255;
    do {
      int rawSeed = RibbonKernel.rawSeed(seed);
      boolean solved;
      if (sorted != null) {
        sortByStart(hashes, count, rawSeed, sorted, buckets);
        solved = addAllRehashed(sorted, count);
      } else {
        solved = addAll(hashes, count, rawSeed);
      }
      if (solved) {
        return seed;
      }
      seed = (seed + 1) & 255;
    } while (seed != (firstSeed & 255));
    return -1;
  }

  /**
   * Back-substitutes the band into RocksDB's interleaved layout of {@code numSegments} 16-byte
   * segments (two longs each, low half first), with {@code upperNumColumns} columns from block
   * {@code upperStartBlock} on and one fewer before it.
   */
  long[] backSubstitute(int numSegments, int upperNumColumns, int upperStartBlock) {
    // room for the query padding of Standard128RibbonFilter
    long[] out = new long[RibbonProbe.paddedWords(numSegments, upperNumColumns)];
    if (upperNumColumns == 0) {
      return out;
    }
    int numBlocks = numSlots / RibbonSizing.SLOTS_PER_BLOCK;
    long[] stateLo = new long[upperNumColumns];
    long[] stateHi = new long[upperNumColumns];
    int segment = numSegments;
    int columns = upperNumColumns;
    for (int block = numBlocks - 1; block >= 0; block--) {
      if (block == upperStartBlock - 1) {
        columns--;
      }
      int first = block * RibbonSizing.SLOTS_PER_BLOCK;
      for (int i = first + RibbonSizing.SLOTS_PER_BLOCK - 1; i >= first; i--) {
        long clo = coeff[2 * i];
        long chi = coeff[2 * i + 1];
        int rr = result[i];
        for (int j = 0; j < columns; j++) {
          long tlo = stateLo[j] << 1;
          long thi = (stateHi[j] << 1) | (stateLo[j] >>> 63);
          long bit = (Long.bitCount((tlo & clo) ^ (thi & chi)) ^ (rr >>> j)) & 1;
          stateLo[j] = tlo | bit;
          stateHi[j] = thi;
        }
      }
      segment -= columns;
      for (int j = 0; j < columns; j++) {
        out[2 * (segment + j)] = stateLo[j];
        out[2 * (segment + j) + 1] = stateHi[j];
      }
    }
    if (segment != 0) {
      throw new IllegalStateException("segment layout mismatch: " + segment + " left over");
    }
    return out;
  }
}
