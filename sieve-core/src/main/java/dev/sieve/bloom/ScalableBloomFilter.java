package dev.sieve.bloom;

import dev.sieve.KeyScheme;
import dev.sieve.MutableFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.Schemes;
import dev.sieve.math.BloomMath;
import dev.sieve.math.GrowthMath;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

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
 * <h2>The math</h2>
 *
 * Stage {@code i} holds {@code c_i} keys, {@code c_0 = n0} (the guess, {@link
 * ScalableBloomFilterBuilder#expectedKeys}) and {@code c_{i+1} = ceil(c_i · s)} (the growth factor
 * {@code s}, default 2), and is sized for the rate {@code f_i = f · (1 − r) · r^i} (the tightening
 * ratio {@code r}, default 0.9), so the chain's rate stays below {@code Σ f_i < f} however many
 * stages open ({@link GrowthMath#scalableStageCapacity}, {@link GrowthMath#scalableStageFpRate},
 * {@link GrowthMath#scalableChainFpRateBound}); the memory taxes over a filter sized right are the
 * tighter rates and the newest stage's unused room ({@link GrowthMath#scalableWorstMemoryRatio}).
 * docs/growing.md gives the derivation and why the defaults.
 *
 * <h2>Queries: newest stage first</h2>
 *
 * The newest, largest stages hold most keys, so a query asks the newest stage first, each stage by
 * its own lookup: a lookup per stage is the price of the chain.
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
 * {@code docs/format.md} gives the layout and the checks. Read in place (a container wrapped or
 * mapped by {@code SieveFormat}) each stage is a zero-copy view.
 *
 * <h2>Limits</h2>
 *
 * At most {@code MAX_STAGES} stages; a stage may not need more than {@link
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
  static final int MAX_STAGES = 64;

  /** The default growth factor {@code s}. */
  static final double DEFAULT_GROWTH_FACTOR = 2.0;

  /** The default tightening ratio {@code r}. */
  static final double DEFAULT_TIGHTENING_RATIO = 0.9;

  /** The default initial capacity, the guess of the key count. */
  static final long DEFAULT_EXPECTED_KEYS = 1_000;

  /** The growth factors accepted. */
  static final double MIN_GROWTH_FACTOR = 1.25;

  static final double MAX_GROWTH_FACTOR = 16.0;

  /** The tightening ratios accepted. */
  static final double MIN_TIGHTENING_RATIO = 0.05;

  static final double MAX_TIGHTENING_RATIO = 0.995;

  /** The largest initial capacity accepted (2^40 keys). */
  static final long MAX_EXPECTED_KEYS = 1L << 40;

  private final long initialCapacity;
  private final double fpRate;
  private final double growthFactor;
  private final double tighteningRatio;
  private final boolean readOnly;
  private final boolean wrapped;
  private final KeyScheme keyScheme;

  /** The stages, oldest first; replaced by a longer copy when a stage opens, never shortened. */
  private volatile ScalableBloomChain chain;

  private final Object growLock = new Object();

  /** A filter over {@code stages}; {@code wrapped} if they read a buffer in place. */
  ScalableBloomFilter(
      long initialCapacity,
      double fpRate,
      double growthFactor,
      double tighteningRatio,
      ScalableBloomStage[] stages,
      boolean readOnly,
      boolean wrapped) {
    this(
        initialCapacity,
        fpRate,
        growthFactor,
        tighteningRatio,
        new ScalableBloomChain(stages),
        readOnly,
        wrapped,
        KeyScheme.XXPH3);
  }

  private ScalableBloomFilter(
      long initialCapacity,
      double fpRate,
      double growthFactor,
      double tighteningRatio,
      ScalableBloomChain chain,
      boolean readOnly,
      boolean wrapped,
      KeyScheme keyScheme) {
    this.keyScheme = keyScheme;
    this.initialCapacity = initialCapacity;
    this.fpRate = fpRate;
    this.growthFactor = growthFactor;
    this.tighteningRatio = tighteningRatio;
    this.chain = chain;
    this.readOnly = readOnly;
    this.wrapped = wrapped;
  }

  /** A filter of {@code from}'s parameters over {@code chain}, hashing keys by {@code scheme}. */
  private ScalableBloomFilter(
      ScalableBloomFilter from,
      ScalableBloomChain chain,
      boolean readOnly,
      boolean wrapped,
      KeyScheme scheme) {
    this(
        from.initialCapacity,
        from.fpRate,
        from.growthFactor,
        from.tighteningRatio,
        chain,
        readOnly,
        wrapped,
        scheme);
  }

  /** A builder: {@code builder().expectedKeys(n0).fpRate(f).create()} gives an empty filter. */
  public static ScalableBloomFilterBuilder builder() {
    return new ScalableBloomFilterBuilder().keyScheme(KeyScheme.FAST);
  }

  /**
   * The fewest thousandths of a bit per key (RocksDB's probe count for them) whose rate, by {@link
   * GrowthMath#blockedBloomFpRateWithProbeCollisions}, is at most {@code rate}; -1 if even 100 bits
   * per key miss it. ({@link BloomMath#cacheLocalFpRate} underestimates tight stages' rates.)
   */
  public static int stageMillibitsPerKey(double rate) {
    return ScalableBloomStage.millibitsPerKey(rate);
  }

  @Override
  public boolean addHash(long hash64) {
    if (readOnly) {
      throw new UnsupportedOperationException(
          wrapped
              ? "a filter wrapping a buffer is read-only"
              : "a snapshot of a scalable filter is read-only");
    }
    while (true) {
      ScalableBloomChain seen = chain;
      ScalableBloomStage newest = seen.stages[seen.stages.length - 1];
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
  private void grow(ScalableBloomChain seen) {
    synchronized (growLock) {
      if (chain != seen) {
        return;
      }
      int m = seen.stages.length;
      ScalableBloomStage next =
          ScalableBloomStage.open(m, initialCapacity, fpRate, growthFactor, tighteningRatio);
      chain = seen.with(next);
    }
  }

  /** Asks the stages newest first (see the class comment for why). */
  @Override
  public boolean mayContainHash(long hash64) {
    return ScalableBloomChain.loopMayContain(chain, hash64);
  }

  /** The stages as they are now, for the tests. */
  ScalableBloomChain chain() {
    return chain;
  }

  @Override
  public long numKeys() {
    return chain.numKeys();
  }

  @Override
  public long sizeInBits() {
    return chain.sizeInBits();
  }

  /** {@code 1 − Π(1 − p_i)} over the stages' rates; below {@link #fpRate()} by construction. */
  @Override
  public double modelledFpRate() {
    return chain.modelledFpRate();
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

  /**
   * Whether the filter reads its stages in place from a buffer (a container wrapped or mapped by
   * {@code SieveFormat}).
   */
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
    return new ScalableBloomFilter(
        this, new ScalableBloomChain(chain.frozen()), true, wrapped, keyScheme);
  }

  /**
   * An independent, mutable copy on the heap (of a quiescent filter: see {@code
   * SieveFormat.write}).
   */
  public ScalableBloomFilter copy() {
    return new ScalableBloomFilter(
        this, new ScalableBloomChain(chain.copied()), false, false, keyScheme);
  }

  @Override
  public KeyScheme keyScheme() {
    return keyScheme;
  }

  @Override
  public ScalableBloomFilter withKeyScheme(KeyScheme scheme) {
    Schemes.check(this, scheme);
    return scheme == keyScheme
        ? this
        : new ScalableBloomFilter(this, chain, readOnly, wrapped, scheme);
  }

  @Override
  public String toString() {
    return "ScalableBloomFilter{keys=%s, stages=%s, bytes=%s, fpRate=%s, growth=%s, tightening=%s}"
        .formatted(numKeys(), numStages(), sizeInBytes(), fpRate, growthFactor, tighteningRatio);
  }

  /**
   * The length of {@link #toByteArray()}. Like the other serializations, take it from a quiescent
   * filter (no adds in flight), or the counts and bits written may be of different moments.
   */
  long serializedLength() {
    return ScalableBloomForm.length(chain.stages);
  }

  /**
   * The serialized form (the container's payload; the class comment gives the layout). The stage
   * list and each stage's key count are read once, so the form is consistent in itself; to
   * serialize while other threads add, write a {@link #snapshot()} (as {@code SieveFormat} does) so
   * that values read outside the payload (the key count, the size) agree with it.
   */
  byte[] toByteArray() {
    return ScalableBloomForm.toByteArray(this, chain.stages);
  }

  /** Writes {@link #toByteArray()}'s bytes to {@code out} in chunks, for any size; not closed. */
  void writeTo(WritableByteChannel out) throws IOException {
    ScalableBloomForm.writeTo(this, chain.stages, out);
  }

  /**
   * Reads the serialized form ({@link #toByteArray()}) onto the heap: a mutable filter that keeps
   * growing by the stored parameters. The form records no key scheme (the container does): {@code
   * scheme} is the written filter's {@link #keyScheme()}, or its keys would be hashed another way.
   *
   * @throws SieveFormatException naming the offset and the problem for anything but a valid form
   */
  static ScalableBloomFilter fromByteArray(byte[] bytes, KeyScheme scheme) {
    return ScalableBloomForm.read(ByteBuffer.wrap(bytes), false).withKeyScheme(scheme);
  }

  /**
   * Reads the serialized form in {@code buffer}'s remaining bytes <em>without copying</em>: each
   * stage queries the buffer in place. The bytes must not change while the filter is in use; the
   * buffer's position and limit may. The filter is read-only ({@link #addHash} throws {@link
   * UnsupportedOperationException}; {@link #copy()} gives a mutable one).
   *
   * @param scheme the written filter's {@link #keyScheme()} (as {@link #fromByteArray})
   * @throws SieveFormatException as {@link #fromByteArray}
   */
  static ScalableBloomFilter wrap(ByteBuffer buffer, KeyScheme scheme) {
    return ScalableBloomForm.read(buffer.slice(), true).withKeyScheme(scheme);
  }
}
