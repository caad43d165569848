package dev.sieve.bloom;

import dev.sieve.MutableFilter;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.ChannelWrites;
import dev.sieve.internal.Checks;
import dev.sieve.math.BloomMath;
import dev.sieve.math.GrowthMath;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Bloom filter for an unknown number of keys: it starts sized for a guess and grows, keeping the
 * false-positive rate (FPR) of the whole filter below the rate asked for at every size. A scalable
 * Bloom filter after Almeida, Baquero, Preguiça and Hutchison, built from RocksDB FastLocalBloom
 * stages ({@link BlockedBloomFilter}).
 *
 * <h2>The idea</h2>
 *
 * A Bloom filter cannot be resized: its bits do not say which keys set them, so they cannot be
 * re-spread over a larger array. Instead, when the newest filter (a <em>stage</em>) has taken the
 * keys it was sized for, a new, larger stage is opened and later keys go there. A query asks every
 * stage; a key is "maybe present" if any stage says so. Each stage is sized for a tighter rate than
 * the one before, so the rates of all stages, however many are opened, add up to at most the
 * requested rate.
 *
 * <h2>The math ({@link GrowthMath#scalableStageFpRate}, {@link GrowthMath#scalableStageCapacity})
 * </h2>
 *
 * <ul>
 *   <li>Stage {@code i} holds {@code c_i} keys: {@code c_0 = n0} (the initial guess, {@link
 *       Builder#expectedKeys}), {@code c_{i+1} = ceil(c_i · s)} (the growth factor {@code s},
 *       default 2). {@code N} keys open about {@code log_s(N (s−1)/n0) + 1} stages: 20 for 10^9
 *       keys from a guess of 10^3 at {@code s = 2}.
 *   <li>Stage {@code i} is sized for the rate {@code f_i = f · (1 − r) · r^i} (the tightening ratio
 *       {@code r}, default 0.9), at the fewest bits per key (in thousandths, with RocksDB's probe
 *       count for them) whose rate meets it by {@link
 *       GrowthMath#blockedBloomFpRateWithProbeCollisions}, a model that counts the collisions of a
 *       key's own probes: RocksDB's two-point model underestimates the tight stages' rates by
 *       10-65%, which would break the bound below. An absent key is a false positive when any stage
 *       answers "maybe": {@code 1 − Π(1 − f_i) ≤ Σ f_i = f · (1 − r^m) < f} ({@link
 *       GrowthMath#scalableChainFpRateBound}), whatever the number of stages {@code m}.
 *   <li>Memory: stage {@code i} costs about {@code c_i · (log2(1/f) + log2(1/(1−r)) + i ·
 *       log2(1/r)) / ln 2} bits. Two taxes over a single filter sized right for the final count:
 *       the tighter rates (about {@code 1.44 · (log2(1/(1−r)) + i · log2(1/r))} bits per key,
 *       growing with the number of stages), and the newest stage's unused room, up to a factor
 *       {@code s} just after it opened ({@link GrowthMath#scalableWorstMemoryRatio}). A larger
 *       {@code r} lowers the first tax where there are many stages and raises it where there are
 *       few; a smaller {@code s} lowers the second but opens more stages, and every stage costs a
 *       probe for an absent key. The defaults ({@code s = 2}, {@code r = 0.9}) had the lowest mean
 *       and worst-case memory over 10^3..10^9 keys from a guess of 10^3 among {@code s ∈ {1.5, 2,
 *       3, 4}}, {@code r ∈ {0.5 .. 0.95}} in the model, without the 33 stages {@code s = 1.5} needs
 *       (README, "Filters that grow", for the measured figures).
 * </ul>
 *
 * <h2>Queries: newest stage first</h2>
 *
 * A present key is in one stage, stage {@code i} with probability about {@code c_i / N}: the
 * newest, largest stages hold most keys (at {@code s = 2} the newest and the one before hold about
 * three quarters), so asking the newest first finds a present key after about two stages on
 * average, against {@code m} oldest-first. An absent key is asked of every stage in either order
 * (it stops early only on a false positive); newest first also issues the likely cache misses of
 * the large stages first, so the small stages, in cache, are tested while those loads are in
 * flight. Each stage is asked by its own lookup, newest first ({@link #mayContainHash}). Two other
 * forms were measured against it at 10^8 keys (17 stages), each interleaved round by round with a
 * blocked Bloom filter sized right for the keys (medians of 15 rounds of 2^20 lookups, a shared
 * machine): this loop 9.5× the right-sized filter's time for absent keys and 5.8× for present ones;
 * a two-pass form that first loads one word per stage, so all stages' misses are in flight
 * together, 10.8× and 6.4×; ANDing every probe of every stage without a branch 19× and 15×. At 10^6
 * keys (10 stages, in cache) all three cost about 10× for absent keys: a lookup per stage is the
 * price of the chain (README, "Filters that grow").
 *
 * <h2>Adds, key counts and concurrency</h2>
 *
 * {@link #addHash} takes a ticket from the newest stage's counter; below the stage's capacity it
 * sets the key's bits in that stage. If the bits were all set already (a key added since that stage
 * opened, or a false positive of that stage) the add returns {@code false} and gives the ticket
 * back, so such an add is not counted and uses no capacity. A key added before the newest stage
 * opened and added again is set and counted again in the newest stage: duplicates count twice
 * unless {@code add} reports them present. {@link #numKeys()} is the sum of the stages' counts.
 *
 * <p>Adds and queries may run from any number of threads. The chain of stages is an immutable array
 * behind a volatile field, replaced by a longer copy when a stage opens, never shortened, so a
 * stage that took a key stays visible to every later query: a key is never lost, whether it was
 * added while a stage was opening or not. Adds take no lock except at a stage switch (about {@code
 * log_s(N/n0)} times in the filter's life): the first thread that finds the newest stage full
 * allocates the next stage, and threads that find it full meanwhile wait for it rather than
 * overfill the full stage (each waits at most one allocation).
 *
 * <h2>Serialized form (the Sieve container, type id 11)</h2>
 *
 * Little-endian, every offset from the payload's start: a 64-byte header ({@code u32} payload
 * version 2, {@code u32} stage count {@code m}, {@code u64} initial capacity {@code n0}, {@code
 * f64} requested rate {@code f}, {@code f64} growth factor {@code s}, {@code f64} tightening ratio
 * {@code r}, 24 zero bytes), then a 32-byte entry per stage ({@code u64} capacity, {@code u64} key
 * count, {@code u64} filter-block length, {@code u32} probe count, 4 zero bytes) padded with zeros
 * to a multiple of 64, then each stage's RocksDB FastLocalBloom filter block (data then the 5-byte
 * trailer) followed by zeros to the next multiple of 64, so every stage's data starts 64-byte
 * aligned. {@code docs/format.md} lists the checks. Read in place from a buffer ({@link #wrap})
 * each stage is a zero-copy view. The entry's probe count is a second copy of the one in the
 * stage's block trailer and must agree with it, so an edit of a stage's probe count behind
 * recomputed checksums is refused (as the container header's parameter A makes it for a plain
 * blocked Bloom filter) rather than read as a stage that answers "absent" for its keys. Payload
 * version 1 (written before version 2) has 8 zero bytes in place of the probe count: it is still
 * read, without that check, and written back as version 2.
 *
 * <h2>Limits</h2>
 *
 * At most {@link #MAX_STAGES} stages; a stage may not need more than {@link
 * BlockedBloomFilter#MAX_DATA_BYTES} bytes nor a rate below what 100 bits per key reach. An add
 * that would open a stage past these limits throws {@link IllegalStateException} naming it (the
 * keys added before stay present). A filter read from bytes is mutable and keeps growing by its
 * stored parameters; a wrapped one is read-only.
 *
 * <p>References: P. S. Almeida, C. Baquero, N. Preguiça, D. Hutchison, "Scalable Bloom Filters",
 * Information Processing Letters 101(6), 2007; RocksDB util/bloom_impl.h for the stages.
 */
public final class ScalableBloomFilter implements MutableFilter {

  /** The most stages a filter opens. */
  public static final int MAX_STAGES = 64;

  /** The default growth factor {@code s}. */
  public static final double DEFAULT_GROWTH_FACTOR = 2.0;

  /** The default tightening ratio {@code r}. */
  public static final double DEFAULT_TIGHTENING_RATIO = 0.9;

  /** The default initial capacity, the guess of the key count. */
  public static final long DEFAULT_EXPECTED_KEYS = 1_000;

  /** The growth factors accepted. */
  public static final double MIN_GROWTH_FACTOR = 1.25;

  public static final double MAX_GROWTH_FACTOR = 16.0;

  /** The tightening ratios accepted. */
  public static final double MIN_TIGHTENING_RATIO = 0.05;

  public static final double MAX_TIGHTENING_RATIO = 0.995;

  /** The largest initial capacity accepted (2^40 keys). */
  public static final long MAX_EXPECTED_KEYS = 1L << 40;

  /** The payload version this class writes (and reads): stage entries with the probe count. */
  static final int PAYLOAD_VERSION = 2;

  /** The payload version written before the stage entries held the probe count; still read. */
  static final int LEGACY_PAYLOAD_VERSION = 1;

  /** The probe counts a FastLocalBloom block trailer holds: 1 to 30. */
  private static final int MAX_STAGE_PROBES = 30;

  static final int HEADER_BYTES = 64;
  static final int STAGE_ENTRY_BYTES = 32;

  private final long initialCapacity;
  private final double fpRate;
  private final double growthFactor;
  private final double tighteningRatio;
  private final boolean readOnly;
  private final boolean wrapped;

  /** The stages, oldest first; replaced by a longer copy when a stage opens, never shortened. */
  private volatile Chain chain;

  private final Object growLock = new Object();

  /**
   * The stages as one immutable snapshot, with their heap data, block counts and probes laid out
   * for the query ({@code words == null} when any stage is wrapped).
   */
  private static final class Chain {
    final Stage[] stages;
    final long[][] words;
    final long[] blocks;
    final int[] probes;

    Chain(Stage[] stages) {
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
  }

  /** One stage: a blocked Bloom filter, its capacity and its count of keys taken. */
  private static final class Stage {
    final BlockedBloomFilter filter;
    final long capacity;
    final AtomicLong count;

    Stage(BlockedBloomFilter filter, long capacity, long count) {
      this.filter = filter;
      this.capacity = capacity;
      this.count = new AtomicLong(count);
    }

    /** The keys counted, without the tickets of adds in flight past the capacity. */
    long keys() {
      return Math.min(count.get(), capacity);
    }
  }

  private ScalableBloomFilter(
      long initialCapacity,
      double fpRate,
      double growthFactor,
      double tighteningRatio,
      Stage[] stages,
      boolean readOnly) {
    this(initialCapacity, fpRate, growthFactor, tighteningRatio, stages, readOnly, readOnly);
  }

  private ScalableBloomFilter(
      long initialCapacity,
      double fpRate,
      double growthFactor,
      double tighteningRatio,
      Stage[] stages,
      boolean readOnly,
      boolean wrapped) {
    this.initialCapacity = initialCapacity;
    this.fpRate = fpRate;
    this.growthFactor = growthFactor;
    this.tighteningRatio = tighteningRatio;
    this.chain = new Chain(stages);
    this.readOnly = readOnly;
    this.wrapped = wrapped;
  }

  // ---------------------------------------------------------------- creation

  /** A builder: {@code builder().expectedKeys(n0).fpRate(f).build()} gives an empty filter. */
  public static Builder builder() {
    return new Builder();
  }

  /** The stage {@code index} of a chain with these parameters, empty. */
  private static Stage newStage(
      int index, long initialCapacity, double fpRate, double growthFactor, double tightening) {
    if (index >= MAX_STAGES) {
      throw new IllegalStateException(
          "the filter is full: it has the most stages a scalable filter opens, " + MAX_STAGES);
    }
    long capacity = GrowthMath.scalableStageCapacity(initialCapacity, growthFactor, index);
    double stageRate = GrowthMath.scalableStageFpRate(fpRate, tightening, index);
    int millibits = stageMillibitsPerKey(stageRate);
    if (millibits < 0) {
      throw new IllegalStateException(
          "the filter is full: stage "
              + index
              + " needs a false-positive rate of "
              + stageRate
              + ", below what "
              + BlockedBloomFilter.MAX_BITS_PER_KEY
              + " bits per key reach");
    }
    int probes = BlockedBloomFilter.chooseNumProbes(millibits);
    if (capacity > BlockedBloomFilter.MAX_DATA_BYTES * 8000 / millibits) {
      throw new IllegalStateException(
          "the filter is full: stage "
              + index
              + " of "
              + capacity
              + " keys at "
              + millibits / 1000.0
              + " bits per key would exceed the FastLocalBloom limit of "
              + BlockedBloomFilter.MAX_DATA_BYTES
              + " bytes");
    }
    long bytes = BlockedBloomFilter.rocksDbDataBytes(capacity, millibits);
    return new Stage(BlockedBloomFilter.withShape(bytes, probes), capacity, 0);
  }

  /**
   * The fewest thousandths of a bit per key (RocksDB's probe count for them) whose rate, by {@link
   * GrowthMath#blockedBloomFpRateWithProbeCollisions}, is at most {@code rate}; -1 if even 100 bits
   * per key miss it. (RocksDB's own model, {@link BloomMath#cacheLocalFpRate}, underestimates the
   * rate of the tight stages by 10-65%, which would break the chain's bound.)
   */
  public static int stageMillibitsPerKey(double rate) {
    int hi = (int) (BlockedBloomFilter.MAX_BITS_PER_KEY * 1000);
    if (stageModel(hi) > rate) {
      return -1;
    }
    int coarse = hi;
    for (int m = 1000; m <= hi; m += 50) {
      if (stageModel(m) <= rate) {
        coarse = m;
        break;
      }
    }
    for (int m = Math.max(1000, coarse - 49); m <= coarse; m++) {
      if (stageModel(m) <= rate) {
        return m;
      }
    }
    return coarse;
  }

  private static double stageModel(int millibits) {
    return GrowthMath.blockedBloomFpRateWithProbeCollisions(
        millibits / 1000.0,
        BlockedBloomFilter.chooseNumProbes(millibits),
        BloomMath.CACHE_LINE_BITS);
  }

  // ---------------------------------------------------------------- adds and queries

  @Override
  public boolean addHash(long hash64) {
    if (readOnly) {
      throw new UnsupportedOperationException(
          wrapped
              ? "a filter wrapping a buffer is read-only"
              : "a snapshot of a scalable filter is read-only");
    }
    while (true) {
      Chain seen = chain;
      Stage newest = seen.stages[seen.stages.length - 1];
      long ticket = newest.count.getAndIncrement();
      if (ticket < newest.capacity) {
        if (newest.filter.addHash(hash64)) {
          return true;
        }
        newest.count.decrementAndGet(); // all bits were set: not counted, the ticket goes back
        return false;
      }
      newest.count.decrementAndGet(); // full: give the ticket back, open the next stage
      grow(seen);
    }
  }

  /** Opens the next stage unless another thread did since {@code seen} was read. */
  private void grow(Chain seen) {
    synchronized (growLock) {
      if (chain != seen) {
        return;
      }
      int m = seen.stages.length;
      Stage next = newStage(m, initialCapacity, fpRate, growthFactor, tighteningRatio);
      Stage[] longer = Arrays.copyOf(seen.stages, m + 1);
      longer[m] = next;
      chain = new Chain(longer);
    }
  }

  /**
   * Asks the stages newest first (see the class comment for why), by default each stage's own
   * lookup in turn ({@code loop}). The {@code twopass} form first loads, for every stage, the word
   * of the key's first probe (independent loads, so the misses of all stages are in flight at once)
   * and then tests the other probes of the stages whose first probe was set; {@code branchfree}
   * ANDs every probe of every stage. All three give the same answers; the measured costs are in the
   * class comment.
   */
  @Override
  public boolean mayContainHash(long hash64) {
    Chain c = chain;
    if (c.words == null || QUERY_FORM == FORM_LOOP) {
      return wrappedMayContain(c, hash64);
    }
    return QUERY_FORM == FORM_BRANCH_FREE
        ? branchFreeMayContain(c, hash64)
        : twoPassMayContain(c, hash64);
  }

  /** The {@code twopass} form ({@link #QUERY_FORM}); package-private for the test. */
  boolean twoPassMayContain(long hash64) {
    Chain c = chain;
    return c.words == null ? wrappedMayContain(c, hash64) : twoPassMayContain(c, hash64);
  }

  private static boolean twoPassMayContain(Chain c, long hash64) {
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

  /**
   * The form of the query, for measurement only (the answers are identical): {@code loop} (the
   * default: each stage's own {@code mayContainHash} in turn, newest first), {@code twopass} or
   * {@code branchfree} ({@link #mayContainHash}). Read once from the system property {@code
   * sieve.scalable.queryForm}, so the JIT folds the choice away.
   */
  static final int QUERY_FORM = queryForm(System.getProperty("sieve.scalable.queryForm", "loop"));

  static final int FORM_TWO_PASS = 0;
  static final int FORM_BRANCH_FREE = 1;
  static final int FORM_LOOP = 2;

  static int queryForm(String name) {
    switch (name) {
      case "twopass":
        return FORM_TWO_PASS;
      case "branchfree":
        return FORM_BRANCH_FREE;
      case "loop":
        return FORM_LOOP;
      default:
        throw new IllegalArgumentException(
            "sieve.scalable.queryForm must be twopass, branchfree or loop, got " + name);
    }
  }

  /** The {@code branchfree} form ({@link #QUERY_FORM}); package-private for the test. */
  boolean branchFreeMayContain(long hash64) {
    Chain c = chain;
    return c.words == null ? wrappedMayContain(c, hash64) : branchFreeMayContain(c, hash64);
  }

  /** The {@code loop} form ({@link #QUERY_FORM}, the default); package-private for the test. */
  boolean loopMayContain(long hash64) {
    return wrappedMayContain(chain, hash64);
  }

  private static boolean branchFreeMayContain(Chain c, long hash64) {
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

  private static boolean wrappedMayContain(Chain c, long hash64) {
    Stage[] stages = c.stages;
    for (int i = stages.length - 1; i >= 0; i--) {
      if (stages[i].filter.mayContainHash(hash64)) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- properties

  /** The sum of the stages' key counts (see the class comment for what is counted). */
  @Override
  public long numKeys() {
    long n = 0;
    for (Stage s : chain.stages) {
      n += s.keys();
    }
    return n;
  }

  /** The data bits of all stages. */
  @Override
  public long sizeInBits() {
    long bits = 0;
    for (Stage s : chain.stages) {
      bits += s.filter.sizeInBits();
    }
    return bits;
  }

  /**
   * {@code 1 − Π(1 − p_i)} over the stages, {@code p_i} each stage's rate at its current key count
   * by {@link GrowthMath#blockedBloomFpRateWithProbeCollisions} (with the 64-bit hash's collision
   * rate); below {@link #fpRate()} by construction.
   */
  @Override
  public double modelledFpRate() {
    double notFp = 1.0;
    for (Stage s : chain.stages) {
      long keys = s.keys();
      if (keys == 0) {
        continue;
      }
      double rate =
          BloomMath.independentProbabilitySum(
              GrowthMath.blockedBloomFpRateWithProbeCollisions(
                  (double) s.filter.sizeInBits() / keys,
                  s.filter.numProbes(),
                  BloomMath.CACHE_LINE_BITS),
              BloomMath.fingerprintFpRate(keys, 64));
      notFp *= 1.0 - rate;
    }
    return 1.0 - notFp;
  }

  /** The requested rate {@code f}, a bound on the whole chain's. */
  public double fpRate() {
    return fpRate;
  }

  /** The initial capacity {@code n0} (stage 0's). */
  public long initialCapacity() {
    return initialCapacity;
  }

  /** The growth factor {@code s}. */
  public double growthFactor() {
    return growthFactor;
  }

  /** The tightening ratio {@code r}. */
  public double tighteningRatio() {
    return tighteningRatio;
  }

  /** The number of stages opened so far (at least 1). */
  public int numStages() {
    return chain.stages.length;
  }

  /** The key capacity of stage {@code i}. */
  public long stageCapacity(int i) {
    return chain.stages[i].capacity;
  }

  /** The keys counted in stage {@code i}. */
  public long stageKeys(int i) {
    return chain.stages[i].keys();
  }

  /** The data bits of stage {@code i}. */
  public long stageSizeInBits(int i) {
    return chain.stages[i].filter.sizeInBits();
  }

  /** The probes per key of stage {@code i}. */
  public int stageNumProbes(int i) {
    return chain.stages[i].filter.numProbes();
  }

  /** Whether the filter reads its stages in place from a buffer ({@link #wrap}). */
  public boolean isWrapped() {
    return wrapped;
  }

  /**
   * A read-only view of this moment: the stages opened so far, each with its key count read once
   * now, sharing the stages' bits (no copy). Every key whose add returned before this call is in
   * it. Adds running meanwhile may still set bits in the shared stages (a bit only ever turns on,
   * so the view answers "maybe" for at least the keys it counts), but its stage count, key counts
   * and sizes no longer move, so everything serialized from it agrees: {@code SieveFormat} writes
   * the container header and the payload of a scalable filter from one snapshot, which is what
   * makes a filter serialized while other threads add read back.
   */
  public ScalableBloomFilter snapshot() {
    Stage[] all = chain.stages;
    Stage[] frozen = new Stage[all.length];
    for (int i = 0; i < all.length; i++) {
      frozen[i] = new Stage(all[i].filter, all[i].capacity, all[i].keys());
    }
    return new ScalableBloomFilter(
        initialCapacity, fpRate, growthFactor, tighteningRatio, frozen, true, wrapped);
  }

  /** An independent, mutable copy on the heap (of a quiescent filter: see {@link #toByteArray}). */
  public ScalableBloomFilter copy() {
    Stage[] all = chain.stages;
    Stage[] out = new Stage[all.length];
    for (int i = 0; i < all.length; i++) {
      out[i] = new Stage(all[i].filter.copy(), all[i].capacity, all[i].keys());
    }
    return new ScalableBloomFilter(
        initialCapacity, fpRate, growthFactor, tighteningRatio, out, false);
  }

  @Override
  public String toString() {
    return "ScalableBloomFilter{keys="
        + numKeys()
        + ", stages="
        + numStages()
        + ", bytes="
        + sizeInBytes()
        + ", fpRate="
        + fpRate
        + ", growth="
        + growthFactor
        + ", tightening="
        + tighteningRatio
        + "}";
  }

  // ---------------------------------------------------------------- serialized form

  /**
   * The length of {@link #toByteArray()}. Like the other serializations, take it from a quiescent
   * filter (no adds in flight), or the counts and bits written may be of different moments.
   */
  public long serializedLength() {
    return layoutLength(chain.stages);
  }

  private static long layoutLength(Stage[] chain) {
    long at = tableEnd(chain.length);
    for (Stage s : chain) {
      at = align64(at + s.filter.rocksDbFilterBlockLength());
    }
    return at;
  }

  private static long tableEnd(int numStages) {
    return align64(HEADER_BYTES + (long) STAGE_ENTRY_BYTES * numStages);
  }

  private static long align64(long at) {
    return (at + 63) & ~63L;
  }

  /**
   * The serialized form (the container's payload; the class comment gives the layout). The stage
   * list and each stage's key count are read once, so the form is consistent in itself; to
   * serialize while other threads add, write a {@link #snapshot()} (as {@code SieveFormat} does) so
   * that values read outside the payload (the key count, the size) agree with it.
   */
  public byte[] toByteArray() {
    Stage[] chain = this.chain.stages;
    long length = layoutLength(chain);
    if (length > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "a scalable filter of " + length + " bytes does not fit one byte[]; use writeTo");
    }
    ByteBuffer out = ByteBuffer.allocate((int) length).order(ByteOrder.LITTLE_ENDIAN);
    out.put(headerAndTable(chain));
    for (Stage s : chain) {
      out.put(s.filter.toRocksDbFilterBlock());
      out.position((int) align64(out.position()));
    }
    return out.array();
  }

  /** Writes {@link #toByteArray()}'s bytes to {@code out} in chunks, for any size; not closed. */
  public void writeTo(WritableByteChannel out) throws IOException {
    Stage[] chain = this.chain.stages;
    ChannelWrites.writeFully(out, ByteBuffer.wrap(headerAndTable(chain)));
    for (Stage s : chain) {
      s.filter.writeRocksDbFilterBlock(out);
      long len = s.filter.rocksDbFilterBlockLength();
      int pad = (int) (align64(len) - len);
      ChannelWrites.writeFully(out, ByteBuffer.allocate(pad));
    }
  }

  private byte[] headerAndTable(Stage[] chain) {
    ByteBuffer b = ByteBuffer.allocate((int) tableEnd(chain.length)).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0, PAYLOAD_VERSION);
    b.putInt(4, chain.length);
    b.putLong(8, initialCapacity);
    b.putDouble(16, fpRate);
    b.putDouble(24, growthFactor);
    b.putDouble(32, tighteningRatio);
    for (int i = 0; i < chain.length; i++) {
      int at = HEADER_BYTES + STAGE_ENTRY_BYTES * i;
      b.putLong(at, chain[i].capacity);
      b.putLong(at + 8, chain[i].keys());
      b.putLong(at + 16, chain[i].filter.rocksDbFilterBlockLength());
      b.putInt(at + 24, chain[i].filter.numProbes());
    }
    return b.array();
  }

  /**
   * Reads the serialized form ({@link #toByteArray()}) onto the heap: a mutable filter that keeps
   * growing by the stored parameters.
   *
   * @throws SieveFormatException naming the offset and the problem for anything but a valid form
   */
  public static ScalableBloomFilter fromByteArray(byte[] bytes) {
    return read(ByteBuffer.wrap(bytes), false);
  }

  /**
   * Reads the serialized form in {@code buffer}'s remaining bytes <em>without copying</em>: each
   * stage queries the buffer in place. The bytes must not change while the filter is in use; the
   * buffer's position and limit may. The filter is read-only ({@link #addHash} throws {@link
   * UnsupportedOperationException}; {@link #copy()} gives a mutable one).
   *
   * @throws SieveFormatException as {@link #fromByteArray}
   */
  public static ScalableBloomFilter wrap(ByteBuffer buffer) {
    return read(buffer.slice(), true);
  }

  private static ScalableBloomFilter read(ByteBuffer payload, boolean inPlace) {
    ByteBuffer in = payload.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    long length = in.remaining();
    Parameters p = Parameters.read(in, length);
    Stage[] chain = new Stage[p.numStages];
    long at = tableEnd(p.numStages);
    for (int i = 0; i < p.numStages; i++) {
      int entry = HEADER_BYTES + STAGE_ENTRY_BYTES * i;
      long blockLength = in.getLong(entry + 16);
      long keys = in.getLong(entry + 8);
      long capacity = in.getLong(entry);
      if (blockLength > length - at) {
        throw new SieveFormatException(
            entry + 16,
            "stage "
                + i
                + " block of "
                + blockLength
                + " bytes at offset "
                + at
                + " runs past the payload's "
                + length
                + " bytes");
      }
      ByteBuffer block = in.duplicate().position((int) at).limit((int) (at + blockLength)).slice();
      BlockedBloomFilter filter;
      try {
        if (inPlace) {
          filter = BlockedBloomFilter.wrapRocksDbFilterBlock(block, keys);
        } else {
          byte[] copy = new byte[(int) blockLength];
          block.get(copy);
          filter = BlockedBloomFilter.fromRocksDbFilterBlock(copy, keys);
        }
      } catch (SieveFormatException e) {
        throw new SieveFormatException(
            at + e.offset(), "stage " + i + " filter block: " + e.getMessage(), e);
      }
      p.checkProbes(i, filter);
      chain[i] = new Stage(filter, capacity, keys);
      long end = at + blockLength;
      at = align64(end);
      if (at > length) {
        throw new SieveFormatException(
            end, "stage " + i + " padding runs past the payload's " + length + " bytes");
      }
      for (long z = end; z < at; z++) {
        if (in.get((int) z) != 0) {
          throw new SieveFormatException(z, "padding after stage " + i + " is not zero");
        }
      }
    }
    if (at != length) {
      throw new SieveFormatException(
          at, "payload of " + length + " bytes, the " + p.numStages + " stages end at " + at);
    }
    return new ScalableBloomFilter(
        p.initialCapacity, p.fpRate, p.growthFactor, p.tighteningRatio, chain, inPlace);
  }

  /** Maps one stage's filter block in place, for {@link #wrapStages}. */
  @FunctionalInterface
  public interface StageMapper {
    /**
     * The read-only filter of the FastLocalBloom block of {@code blockLength} bytes at {@code
     * blockOffset} (from the payload's start), holding {@code keys} keys; the zero padding from
     * {@code blockOffset + blockLength} to {@code paddedEnd} is the mapper's to check.
     */
    BlockedBloomFilter map(int stage, long blockOffset, long blockLength, long paddedEnd, long keys)
        throws IOException;
  }

  /**
   * The number of leading payload bytes {@link #wrapStages} needs to see: the header and the
   * largest stage table.
   */
  public static final int MAX_TABLE_BYTES = HEADER_BYTES + STAGE_ENTRY_BYTES * MAX_STAGES;

  /**
   * Reads a payload too large for one buffer (over 2 GiB, as {@code SieveFormat.map} meets it):
   * {@code head} holds the payload's first {@code min(payloadLength, MAX_TABLE_BYTES)} bytes, and
   * {@code mapper} maps each stage's block in place. Checked as {@link #fromByteArray}; the filter
   * is read-only.
   *
   * @throws SieveFormatException with offsets from the payload's start
   */
  public static ScalableBloomFilter wrapStages(
      ByteBuffer head, long payloadLength, StageMapper mapper) throws IOException {
    ByteBuffer in = head.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    Parameters p = Parameters.read(in, Math.min(payloadLength, in.remaining()), payloadLength);
    Stage[] chain = new Stage[p.numStages];
    long at = tableEnd(p.numStages);
    for (int i = 0; i < p.numStages; i++) {
      int entry = HEADER_BYTES + STAGE_ENTRY_BYTES * i;
      long blockLength = in.getLong(entry + 16);
      long keys = in.getLong(entry + 8);
      if (blockLength > payloadLength - at || align64(at + blockLength) > payloadLength) {
        throw new SieveFormatException(
            entry + 16,
            "stage "
                + i
                + " block of "
                + blockLength
                + " bytes at offset "
                + at
                + " runs past the payload's "
                + payloadLength
                + " bytes");
      }
      BlockedBloomFilter filter = mapper.map(i, at, blockLength, align64(at + blockLength), keys);
      p.checkProbes(i, filter);
      chain[i] = new Stage(filter, in.getLong(entry), keys);
      at = align64(at + blockLength);
    }
    if (at != payloadLength) {
      throw new SieveFormatException(
          at,
          "payload of " + payloadLength + " bytes, the " + p.numStages + " stages end at " + at);
    }
    return new ScalableBloomFilter(
        p.initialCapacity, p.fpRate, p.growthFactor, p.tighteningRatio, chain, true);
  }

  /** The header and stage table, checked (everything but the filter blocks). */
  private static final class Parameters {
    int numStages;
    long initialCapacity;
    double fpRate;
    double growthFactor;
    double tighteningRatio;

    /** The stages' probe counts from their entries; {@code null} for payload version 1. */
    int[] probes;

    /** Checks stage {@code i}'s block against the probe count its entry records. */
    void checkProbes(int i, BlockedBloomFilter filter) {
      if (probes != null && filter.numProbes() != probes[i]) {
        throw new SieveFormatException(
            HEADER_BYTES + STAGE_ENTRY_BYTES * i + 24,
            "stage "
                + i
                + " entry records "
                + probes[i]
                + " probes, its filter block has "
                + filter.numProbes());
      }
    }

    static Parameters read(ByteBuffer in, long length) {
      return read(in, length, length);
    }

    /** {@code visible} bytes of a payload of {@code length} bytes are in {@code in}. */
    static Parameters read(ByteBuffer in, long visible, long length) {
      if (length < HEADER_BYTES || visible < HEADER_BYTES) {
        throw new SieveFormatException(
            0, "scalable Bloom payload of " + length + " bytes, shorter than its 64-byte header");
      }
      Parameters p = new Parameters();
      int version = in.getInt(0);
      if (version != PAYLOAD_VERSION && version != LEGACY_PAYLOAD_VERSION) {
        throw new SieveFormatException(
            0,
            "scalable Bloom payload version "
                + version
                + ", this reader knows "
                + LEGACY_PAYLOAD_VERSION
                + " and "
                + PAYLOAD_VERSION);
      }
      int m = in.getInt(4);
      if (m < 1 || m > MAX_STAGES) {
        throw new SieveFormatException(4, "stage count " + m + " outside 1.." + MAX_STAGES);
      }
      p.numStages = m;
      p.probes = version == LEGACY_PAYLOAD_VERSION ? null : new int[m];
      p.initialCapacity = in.getLong(8);
      if (p.initialCapacity < 1 || p.initialCapacity > MAX_EXPECTED_KEYS) {
        throw new SieveFormatException(
            8, "initial capacity " + p.initialCapacity + " outside 1.." + MAX_EXPECTED_KEYS);
      }
      p.fpRate = in.getDouble(16);
      if (!(p.fpRate > 0 && p.fpRate < 1)) {
        throw new SieveFormatException(16, "false-positive rate " + p.fpRate + " outside (0, 1)");
      }
      p.growthFactor = in.getDouble(24);
      if (!(p.growthFactor >= MIN_GROWTH_FACTOR && p.growthFactor <= MAX_GROWTH_FACTOR)) {
        throw new SieveFormatException(
            24,
            "growth factor "
                + p.growthFactor
                + " outside ["
                + MIN_GROWTH_FACTOR
                + ", "
                + MAX_GROWTH_FACTOR
                + "]");
      }
      p.tighteningRatio = in.getDouble(32);
      if (!(p.tighteningRatio >= MIN_TIGHTENING_RATIO
          && p.tighteningRatio <= MAX_TIGHTENING_RATIO)) {
        throw new SieveFormatException(
            32,
            "tightening ratio "
                + p.tighteningRatio
                + " outside ["
                + MIN_TIGHTENING_RATIO
                + ", "
                + MAX_TIGHTENING_RATIO
                + "]");
      }
      for (int z = 40; z < HEADER_BYTES; z++) {
        if (in.get(z) != 0) {
          throw new SieveFormatException(z, "reserved header byte is not zero");
        }
      }
      long tableEnd = tableEnd(m);
      if (tableEnd > length || tableEnd > visible) {
        throw new SieveFormatException(
            4,
            "a table of " + m + " stages needs " + tableEnd + " bytes, the payload has " + length);
      }
      for (int i = 0; i < m; i++) {
        int entry = HEADER_BYTES + STAGE_ENTRY_BYTES * i;
        long capacity = in.getLong(entry);
        long expected = GrowthMath.scalableStageCapacity(p.initialCapacity, p.growthFactor, i);
        if (capacity != expected) {
          throw new SieveFormatException(
              entry, "stage " + i + " capacity " + capacity + ", the parameters give " + expected);
        }
        long keys = in.getLong(entry + 8);
        if (keys < 0 || keys > capacity) {
          throw new SieveFormatException(
              entry + 8, "stage " + i + " key count " + keys + " outside 0.." + capacity);
        }
        long blockLength = in.getLong(entry + 16);
        if (blockLength < BlockedBloomFilter.BLOCK_BYTES + BlockedBloomFilter.TRAILER_BYTES
            || blockLength > BlockedBloomFilter.MAX_DATA_BYTES + BlockedBloomFilter.TRAILER_BYTES) {
          throw new SieveFormatException(
              entry + 16,
              "stage "
                  + i
                  + " block length "
                  + blockLength
                  + " outside "
                  + (BlockedBloomFilter.BLOCK_BYTES + BlockedBloomFilter.TRAILER_BYTES)
                  + ".."
                  + (BlockedBloomFilter.MAX_DATA_BYTES + BlockedBloomFilter.TRAILER_BYTES));
        }
        int reservedFrom = entry + 24;
        if (p.probes != null) {
          int probes = in.getInt(entry + 24);
          if (probes < 1 || probes > MAX_STAGE_PROBES) {
            throw new SieveFormatException(
                entry + 24,
                "stage " + i + " probe count " + probes + " outside 1.." + MAX_STAGE_PROBES);
          }
          p.probes[i] = probes;
          reservedFrom = entry + 28;
        }
        for (int z = reservedFrom; z < entry + STAGE_ENTRY_BYTES; z++) {
          if (in.get(z) != 0) {
            throw new SieveFormatException(z, "reserved byte of stage " + i + " is not zero");
          }
        }
      }
      for (long z = HEADER_BYTES + (long) STAGE_ENTRY_BYTES * m; z < tableEnd; z++) {
        if (in.get((int) z) != 0) {
          throw new SieveFormatException(z, "padding after the stage table is not zero");
        }
      }
      return p;
    }
  }

  // ---------------------------------------------------------------- builder

  /**
   * Builds {@link ScalableBloomFilter}s: {@code build()} gives an empty filter; the {@code build}
   * methods over keys add them one by one to an empty filter.
   */
  public static final class Builder extends MutableFilterBuilder<ScalableBloomFilter> {
    private long expectedKeys = DEFAULT_EXPECTED_KEYS;
    private double fpRate = 0.01;
    private double growthFactor = DEFAULT_GROWTH_FACTOR;
    private double tighteningRatio = DEFAULT_TIGHTENING_RATIO;

    private Builder() {}

    /** The initial guess of the key count, stage 0's capacity: 1 to 2^40 (default 1,000). */
    @Override
    public Builder expectedKeys(long expectedKeys) {
      if (expectedKeys < 1 || expectedKeys > MAX_EXPECTED_KEYS) {
        throw new IllegalArgumentException(
            "expected keys must be in [1, " + MAX_EXPECTED_KEYS + "], got " + expectedKeys);
      }
      super.expectedKeys(expectedKeys);
      this.expectedKeys = expectedKeys;
      return this;
    }

    /** The false-positive rate of the whole filter at every size, in (0, 1) (default 0.01). */
    @Override
    public Builder fpRate(double fpRate) {
      this.fpRate = Checks.fpRate(fpRate);
      return this;
    }

    /** The factor {@code s} by which each stage's capacity exceeds the last's (default 2). */
    public Builder growthFactor(double growthFactor) {
      if (!(growthFactor >= MIN_GROWTH_FACTOR && growthFactor <= MAX_GROWTH_FACTOR)) {
        throw new IllegalArgumentException(
            "growth factor must be in ["
                + MIN_GROWTH_FACTOR
                + ", "
                + MAX_GROWTH_FACTOR
                + "], got "
                + growthFactor);
      }
      this.growthFactor = growthFactor;
      return this;
    }

    /**
     * The ratio {@code r} by which each stage's rate is tighter than the last's (default 0.9):
     * stage {@code i} gets {@code f · (1 − r) · r^i}.
     */
    public Builder tighteningRatio(double tighteningRatio) {
      if (!(tighteningRatio >= MIN_TIGHTENING_RATIO && tighteningRatio <= MAX_TIGHTENING_RATIO)) {
        throw new IllegalArgumentException(
            "tightening ratio must be in ["
                + MIN_TIGHTENING_RATIO
                + ", "
                + MAX_TIGHTENING_RATIO
                + "], got "
                + tighteningRatio);
      }
      this.tighteningRatio = tighteningRatio;
      return this;
    }

    /**
     * An empty filter with stage 0 allocated.
     *
     * @throws IllegalArgumentException if stage 0 cannot be sized (a rate below what 100 bits per
     *     key reach, or more bytes than FastLocalBloom allows)
     */
    public ScalableBloomFilter build() {
      return create();
    }

    /**
     * {@inheritDoc}
     *
     * <p>The same as {@link #build()}: stage 0 sized for {@link #expectedKeys(long)}, the filter
     * growing past it.
     */
    @Override
    public ScalableBloomFilter create() {
      Stage first;
      try {
        first = newStage(0, expectedKeys, fpRate, growthFactor, tighteningRatio);
      } catch (IllegalStateException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
      return new ScalableBloomFilter(
          expectedKeys, fpRate, growthFactor, tighteningRatio, new Stage[] {first}, false);
    }

    @Override
    protected ScalableBloomFilter buildFromHashes(long[] hashes, int count) {
      ScalableBloomFilter filter = build();
      for (int i = 0; i < count; i++) {
        filter.addHash(hashes[i]);
      }
      return filter;
    }
  }
}
