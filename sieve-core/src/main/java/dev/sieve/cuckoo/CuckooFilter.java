package dev.sieve.cuckoo;

import dev.sieve.KeyScheme;
import dev.sieve.MutableFilter;
import dev.sieve.internal.Schemes;
import dev.sieve.internal.base.BatchScratch;
import dev.sieve.math.FingerprintMath;
import java.nio.ByteBuffer;

/**
 * A Cuckoo filter (Fan, Andersen, Kaminsky and Mitzenmacher, "Cuckoo Filter: Practically Better
 * Than Bloom", CoNEXT 2014): a filter that supports adding <em>and deleting</em> keys, with 4-slot
 * buckets and {@code f}-bit fingerprints (8, 12 and 16 are the usual widths; 4 to 16 are accepted).
 *
 * <h2>In short</h2>
 *
 * A key is present when either of its two buckets holds its nonzero {@code f}-bit fingerprint; an
 * add that finds both buckets full evicts fingerprints to their other buckets, at most {@value
 * #MAX_KICKS} times, and a delete clears one slot holding the fingerprint. FPR {@code ≈ 8α / 2^f}
 * at load {@code α} ({@link FingerprintMath#cuckooFpRate}): at the design load {@value
 * #DESIGN_LOAD}, 2.9% for 8 bits, 0.19% for 12 and 0.012% for 16, in {@code f / α} bits per key
 * (8.4, 12.6 and 16.8). Against Bloom filters: deletes, and smaller at FPRs below about 0.4%, but
 * adds can fail when the table is full and the size is fixed at creation. Against the Xor and
 * Binary Fuse filters: mutable, but larger (1.3 to 1.7 times the floor against 1.13 to 1.23) and a
 * query reads two buckets. The derivations, the bit-packed layout and the addressing are in the
 * package's {@code CuckooKernel}. The key hash is remixed before addressing, so low-entropy hashes
 * ({@code addHash(0)}, {@code addHash(1)}, ...) keep the capacity. The same operations give the
 * same bytes.
 *
 * <h2>Sizing</h2>
 *
 * {@link #createWithFingerprintBits} sizes the table for {@code expectedKeys = n} at load {@value
 * #DESIGN_LOAD} plus a margin for the randomness of small tables: {@code buckets = max(16, ceil(n /
 * (4 · 0.95) + 1.5 · sqrt(n)))}, a load of about 0.125 at {@code n = 8}, 0.55 at 64, 0.76 at 512,
 * 0.91 at 16,384 and 0.945 at {@code 10^6} (0.6% more space there; {@code CuckooSizingTest} pins
 * these figures). In {@code 10^7} random key sets per size of 1 to 16,384 keys none failed to fit;
 * more keys usually fit too, until an add fails.
 *
 * <h2>A full table</h2>
 *
 * When an add runs out of kicks, it undoes its evictions, newest first, so the filter is exactly as
 * before and no key is lost. {@link #addHash} (and every {@code add}) then returns {@code false},
 * the one case in which it does, and {@link #failedAdds()} counts the failure, so a caller that
 * ignores the result can still see it. The failed key answers "absent" unless it was present
 * before. {@link CuckooFilterBuilder#build} never fails this way: it grows the table and starts
 * again.
 *
 * <h2>Multiset semantics and deletes</h2>
 *
 * Each add stores one more copy of the fingerprint (the filter cannot tell a repeated key from a
 * different key with the same fingerprint and buckets), and each delete removes one copy: a key
 * added {@code c} times stays present until it is deleted {@code c} times. At most 8 copies of one
 * key fit (its two buckets): a key list with repeats, added with {@link #add}, can fail at any load
 * once one key comes a ninth time (a list with 43% duplicates failed at load 0.47), and every
 * repeat takes a slot. For a list that may hold repeats use {@link #addIfAbsent} (below), or
 * de-duplicate the keys first. A delete of a key whose fingerprint is in neither bucket returns
 * {@code false} and changes nothing. <b>Delete only keys that were added</b>: a never-added key
 * that is a false positive (probability {@link #modelledFpRate()}) shares its fingerprint and a
 * bucket with an added key, and deleting it removes that key's copy, a false negative for it. No
 * filter can detect this; it is the price of deletion without storing keys.
 *
 * <h2>Adding only keys not yet present</h2>
 *
 * {@link #addHashIfAbsent} (and {@link #addIfAbsent(long)}, {@link #addIfAbsent(byte[])}) stores
 * the fingerprint only if the filter does not already answer "maybe" for the key, so repeats take
 * no slot and {@code createWithFingerprintBits(n, f)} with {@code n} distinct keys suffices. <b>Its
 * catch: use it only on filters that never delete.</b> A new key that is a false positive (about
 * {@link #modelledFpRate()}) is skipped and stays present only through the colliding key's copy, so
 * deleting that key makes it answer "absent". Without deletes, skipping is safe. The key count then
 * counts stored fingerprints, slightly fewer than the distinct keys.
 *
 * <h2>Threads</h2>
 *
 * <b>Not thread-safe.</b> Unlike Sieve's other filters, a Cuckoo filter needs external
 * synchronization for every add and delete, and queries must not run concurrently with them (an
 * eviction moves a fingerprint, so a concurrent query can miss a present key); concurrent queries
 * alone are safe.
 */
public final class CuckooFilter implements MutableFilter {

  // This class holds the API, the shape and the counts; CuckooKernel, the algorithm as static
  // methods over the raw words; CuckooForm, the serialized form (both versions).

  /** Slots per bucket. */
  static final int SLOTS_PER_BUCKET = CuckooKernel.SLOTS_PER_BUCKET;

  /** The most evictions one add tries before it gives up. */
  public static final int MAX_KICKS = CuckooKernel.MAX_KICKS;

  /** The load {@link #createWithFingerprintBits} sizes for: {@code n / (4 · buckets) ≤ 0.95}. */
  public static final double DESIGN_LOAD = 0.95;

  // Two storage forms, each with its own hot loop in CuckooKernel: one loop over a common storage
  // interface was measurably slower on heap queries; every cold method reads through one accessor
  // instead.
  /** The buckets on the heap; {@code null} when the filter wraps a buffer ({@link #wrapped}). */
  private final long[] words;

  /** The bucket words in a wrapped buffer, little-endian; {@code null} for a filter on the heap. */
  private final ByteBuffer wrapped;

  private final int numBuckets;
  private final int fingerprintBits;
  private final long laneOnes;
  private final long laneHighs;
  private final BatchScratch.ChunkProbe chunkProbe = this::probeChunk;
  private final KeyScheme keyScheme;
  private long numKeys;
  private long failedAdds;
  private int[] kickPath; // CuckooKernel.kick's path; allocated on the first kick

  /** A filter on {@code words}, or on {@code wrapped} (read-only) when {@code words} is null. */
  CuckooFilter(
      long[] words, ByteBuffer wrapped, int numBuckets, int fingerprintBits, long numKeys) {
    this(words, wrapped, numBuckets, fingerprintBits, numKeys, KeyScheme.XXPH3);
  }

  private CuckooFilter(
      long[] words,
      ByteBuffer wrapped,
      int numBuckets,
      int fingerprintBits,
      long numKeys,
      KeyScheme keyScheme) {
    this.keyScheme = keyScheme;
    this.words = words;
    this.wrapped = wrapped;
    this.numBuckets = numBuckets;
    this.fingerprintBits = fingerprintBits;
    this.laneOnes = CuckooKernel.laneOnes(fingerprintBits);
    this.laneHighs = CuckooKernel.laneHighs(fingerprintBits);
    this.numKeys = numKeys;
  }

  /**
   * An empty filter with {@code fingerprintBits}-bit fingerprints and room for {@code expectedKeys}
   * stored fingerprints: {@code CuckooBuild.bucketsFor(expectedKeys)} buckets, so that that many
   * distinct keys fit with overwhelming probability for every size (see the sizing in the class
   * comment). {@code expectedKeys} counts <em>adds</em>, not distinct keys: every {@link #add}
   * stores one more copy, repeats included (at most 8 copies of one key fit). With {@link
   * #addIfAbsent} a repeat stores nothing, and then {@code expectedKeys} counts distinct keys.
   *
   * @throws IllegalArgumentException if {@code fingerprintBits} is outside [4, 16] or the table
   *     would need more than {@code MAX_BUCKETS} buckets
   */
  public static CuckooFilter createWithFingerprintBits(long expectedKeys, int fingerprintBits) {
    CuckooBuild.checkFingerprintBits(fingerprintBits);
    return CuckooBuild.withBuckets(CuckooBuild.bucketsFor(expectedKeys), fingerprintBits);
  }

  /**
   * A builder: {@code fingerprintBits(f)} (default 12) or {@code fpRate(r)}, {@code
   * expectedKeys(n)} and {@code create()} for an empty filter, or {@code build(keys)}.
   */
  public static CuckooFilterBuilder builder() {
    return new CuckooFilterBuilder();
  }

  @Override
  public boolean mayContainHash(long hash64) {
    if (words == null) {
      return CuckooKernel.mayContain(
          wrapped, numBuckets, fingerprintBits, laneOnes, laneHighs, hash64);
    }
    return CuckooKernel.mayContain(words, numBuckets, fingerprintBits, laneOnes, laneHighs, hash64);
  }

  /** Reads both buckets of each key of a 64-hash chunk without a data-dependent branch. */
  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    if (words == null) {
      return MutableFilter.super.mayContainHashes(hashes, off, len, resultBits);
    }
    return BatchScratch.batch(hashes, off, len, resultBits, chunkProbe);
  }

  private long probeChunk(long[] hashes, int at, int chunk) {
    return CuckooKernel.probeChunk(
        words, numBuckets, fingerprintBits, laneOnes, laneHighs, hashes, at, chunk);
  }

  /** {@return whether the filter reads its buckets in place from a buffer; read-only} */
  public boolean isWrapped() {
    return words == null;
  }

  private void checkMutable() {
    if (words == null) {
      throw new UnsupportedOperationException(
          "a cuckoo filter wrapping a buffer is read-only; copy() gives a mutable one");
    }
  }

  /**
   * Adds the key whose 64-bit hash this is unless the filter already answers "maybe" for it; then
   * nothing changes. Repeats of a key take no slot. <b>For filters that never delete</b>: a new key
   * skipped as a false positive is present only through the colliding key's copy, and deleting that
   * key makes it answer "absent" (see the class comment).
   *
   * @return {@code true} if a fingerprint was stored; {@code false} if the key already answered
   *     "maybe" (a repeat, or a false positive) or the table is full ({@link #failedAdds()} counts
   *     that case, and the filter is unchanged)
   * @throws UnsupportedOperationException if the filter is {@linkplain #isWrapped() wrapped}
   */
  public boolean addHashIfAbsent(long hash64) {
    checkMutable();
    if (mayContainHash(hash64)) {
      return false;
    }
    return addHash(hash64);
  }

  /** {@link #addHashIfAbsent} for a {@code long} key, hashed by the filter's scheme. */
  public boolean addIfAbsent(long key) {
    return addHashIfAbsent(keyScheme.hash(key));
  }

  /** {@link #addHashIfAbsent} for a byte-string key, hashed by the filter's scheme. */
  public boolean addIfAbsent(byte[] key) {
    return addHashIfAbsent(keyScheme.hash(key, 0, key.length));
  }

  @Override
  public KeyScheme keyScheme() {
    return keyScheme;
  }

  @Override
  public CuckooFilter withKeyScheme(KeyScheme scheme) {
    Schemes.check(this, scheme);
    if (scheme == keyScheme) {
      return this;
    }
    CuckooFilter f = new CuckooFilter(words, wrapped, numBuckets, fingerprintBits, numKeys, scheme);
    f.failedAdds = failedAdds;
    return f;
  }

  /**
   * Adds one copy of the key. {@code false} only if the table is too full to take it: then the
   * filter is unchanged and {@link #failedAdds()} is one higher. Throws if {@linkplain #isWrapped()
   * wrapped}.
   */
  @Override
  public boolean addHash(long hash64) {
    checkMutable();
    long h = CuckooKernel.remix(hash64);
    int fp = CuckooKernel.fingerprint(h, fingerprintBits);
    int i1 = CuckooKernel.primaryBucket(h, numBuckets);
    int i2 = CuckooKernel.alternateBucket(i1, fp, numBuckets);
    if (CuckooKernel.putInFreeSlot(words, i1, fp, fingerprintBits)
        || CuckooKernel.putInFreeSlot(words, i2, fp, fingerprintBits)
        || CuckooKernel.kick(words, kickPath(), numBuckets, fingerprintBits, fp, i1, i2)) {
      numKeys++;
      return true;
    }
    failedAdds++;
    return false;
  }

  /** The kick path, allocated on the first add that needs kicks. */
  private int[] kickPath() {
    if (kickPath == null) {
      kickPath = new int[CuckooKernel.KICK_PATH_LENGTH];
    }
    return kickPath;
  }

  /**
   * The adds that found the table full and stored nothing, since this object was created (not
   * serialized; a copy starts at 0). Nonzero means some key given to {@code add} answers "absent":
   * the filter needs rebuilding with more room.
   */
  public long failedAdds() {
    return failedAdds;
  }

  /**
   * Deletes one copy of the key whose 64-bit hash this is. Delete only keys that were added (see
   * the class comment).
   *
   * @return {@code false} if neither of the key's buckets holds its fingerprint; then nothing
   *     changed
   * @throws UnsupportedOperationException if the filter is {@linkplain #isWrapped() wrapped}
   */
  public boolean removeHash(long hash64) {
    checkMutable();
    if (CuckooKernel.remove(words, numBuckets, fingerprintBits, hash64)) {
      numKeys--;
      return true;
    }
    return false;
  }

  /** Deletes one copy of a {@code long} key; see {@link #removeHash}. */
  public boolean remove(long key) {
    return removeHash(keyScheme.hash(key));
  }

  /** Deletes one copy of a byte-string key; see {@link #removeHash}. */
  public boolean remove(byte[] key) {
    return removeHash(keyScheme.hash(key, 0, key.length));
  }

  /** The number of fingerprints stored: adds that succeeded minus deletes that found one. */
  @Override
  public long numKeys() {
    return numKeys;
  }

  @Override
  public long sizeInBits() {
    return (long) numBuckets * SLOTS_PER_BUCKET * fingerprintBits;
  }

  /** {@link FingerprintMath#cuckooFilterFpRate} at the current load. */
  @Override
  public double modelledFpRate() {
    return FingerprintMath.cuckooFilterFpRate(
        numKeys, capacity(), fingerprintBits, SLOTS_PER_BUCKET);
  }

  /** {@return the fraction of slots in use} */
  public double load() {
    return (double) numKeys / capacity();
  }

  /** {@return the number of slots, {@code 4 · buckets}} */
  public long capacity() {
    return (long) numBuckets * SLOTS_PER_BUCKET;
  }

  int numBuckets() {
    return numBuckets;
  }

  public int fingerprintBits() {
    return fingerprintBits;
  }

  /** {@return an independent, mutable copy on the heap (of a wrapped filter too)} */
  public CuckooFilter copy() {
    long[] out = words != null ? words.clone() : CuckooForm.words(wrapped, numWords());
    return new CuckooFilter(out, null, numBuckets, fingerprintBits, numKeys, keyScheme);
  }

  private int numWords() {
    return CuckooKernel.wordsFor(numBuckets, fingerprintBits);
  }

  /** The serialized form ({@link CuckooForm}): the payload of this filter in the container. */
  byte[] toByteArray() {
    return CuckooForm.write(fingerprintBits, numBuckets, numKeys, words, wrapped);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CuckooFilter f
        && f.keyScheme == keyScheme
        && f.fingerprintBits == fingerprintBits
        && f.numBuckets == numBuckets
        && f.numKeys == numKeys
        && CuckooKernel.sameWords(words, wrapped, f.words, f.wrapped, numWords());
  }

  @Override
  public int hashCode() {
    return CuckooKernel.hashWords(words, wrapped, numWords()) * 31 + numBuckets;
  }

  @Override
  public String toString() {
    return "CuckooFilter{buckets=%d, fingerprintBits=%d, keys=%d, load=%s}"
        .formatted(numBuckets, fingerprintBits, numKeys, load());
  }
}
