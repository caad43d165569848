package dev.sieve.expand;

import dev.sieve.KeyScheme;
import dev.sieve.MutableFilter;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.Schemes;
import dev.sieve.internal.base.BatchScratch;
import java.util.concurrent.locks.StampedLock;

/**
 * An expandable fingerprint filter: a filter that needs no key count up front, grows by doubling
 * one table in place, deletes, and merges, with its false-positive rate at most the target {@code
 * f} at every size. The table is a quotient filter whose entries carry fingerprints of different
 * lengths (InfiniFilter: N. Dayan, I. Bercea, P. Reviriego, R. Pagh, "InfiniFilter: Expanding
 * Filters to Infinity and Beyond", SIGMOD 2023; the Aleph filter: N. Dayan, I. Bercea, R. Pagh,
 * "Aleph Filter: To Infinity in Constant Time", PVLDB 17(11), 2024, arXiv 2404.04703). The layout,
 * the slot format and the loops are in the package's {@code ExpandableKernel}, the doubling and the
 * union in {@code ExpandableGrowth}; the figures below are {@link ExpandableMath}'s.
 *
 * <h2>The idea</h2>
 *
 * A table has {@code n} slots; a key hash {@code h}, scaled to {@code h · n / 2^64}, gives the
 * key's slot (the integer part, the quotient) and its position inside the slot (the fraction),
 * whose top {@code r} bits are the fingerprint kept in the slot's run. When the load reaches
 * {@value ExpandableMath#MAX_LOAD} the table doubles: every entry moves to run {@code 2q} or {@code
 * 2q + 1} by its top fingerprint bit and keeps {@code r − 1} bits. An entry always knows its key's
 * position to the same precision, {@code 2^(−r)/n} of the hash range: what it gains in address it
 * loses in fingerprint. A query reads one run of one table, however often the table doubled. A
 * doubling is incremental ({@code ExpandableMigration}, with the math of its step): each write
 * moves at most 16 of the old table's entries into the new one, in quotient order; until the last
 * has moved a query also reads the old table's run. Each entry keeps its known hash bits, so the
 * rate below is that of one table.
 *
 * <h2>The rate, and the budget that bounds it</h2>
 *
 * An entry with {@code r} fingerprint bits in a table of {@code n} slots matches a random absent
 * key with probability {@code 2^(−r)/n}, before and after any doubling. So the expected number of
 * matching entries, an upper bound on the rate, is exactly {@code m = Σ_e 2^(−r_e) / n}: unchanged
 * by a doubling or a {@link #compact()}, lowered by a remove, raised by an add by an amount fixed
 * when it is added. The filter keeps its entries' lengths, so {@link #modelledFpRate()} is {@code
 * m}, and spends the target {@code f} as a budget (figures at load L = {@value
 * ExpandableMath#MAX_LOAD}; the induction is in {@link ExpandableMath}'s class comment):
 *
 * <pre>
 *   Sized start (a hint, or build(keys)): the first generation gets r0 bits, the smallest with
 *       L · 2^(−r0) · (1 + 1/8) ≤ f.  At the size built for, m = L · 2^(−r0), in (f/2.25, f/1.125]:
 *       1%: r0 = 7, m = 0.66%, 10-bit slots, 12.07 bits/key;  0.1%: r0 = 10, m = 0.083%, 15.6.
 *       (A factor-2 window because lengths are integers; 1/8 of f stays for growth past the size.)
 *   Start from the smallest table (no hint): r0 = the doubling rule below with m = p = 0, K = 26:
 *       9 bits at 1%, 12 at 0.1% (0.85 · 4.75 · 2^(−r0) ≤ f).
 *   At each doubling (and at a halving): r = the smallest length, at least the longest present
 *       fingerprint in the new table's terms, with
 *           m + 2^(−r) · (L · W(K) − p)  ≤  f,     W(K) = Σ_{i=0..K} 2^(−floor(log2(i+1))),
 *       p the entries per slot after the doubling, K the doublings left to 2^32 slots.
 *       2^(−r) · (L − p) bounds what this generation adds (it fills at most the free slots), the
 *       rest is the reserve that makes r + 1 feasible at the next doubling: m ≤ f at every moment,
 *       for any adds and removes of present keys, and a length at most one bit longer per doubling.
 * </pre>
 *
 * <p>The cost in bits per key is {@code (slotBits + 0.25) / load}, the slot {@value
 * ExpandableMath#SLOT_OVERHEAD_BITS} bits more than the newest generation's fingerprint (and a
 * 16-bit offset per 64 slots): between {@code (slotBits + 0.25) / 0.85} just before a doubling and
 * twice that just after it. Grown from the smallest table at 1%: 12-bit slots to the 3rd doubling,
 * 13 to the 12th, 14 to the 20th, then 15; at 0.1%: 15, 16 from the 1st, 17 from the 9th, 18 from
 * the 18th. A sized filter that grows past its size pays for the small reserve it kept: its slots
 * get 3 bits wider at 1% (13), 5 at 0.1% (18), about those of growth from the smallest table. A
 * table that grows by doubling cannot do better at every size (just after a doubling its load is
 * 0.425), and growing one slot at a time (linear hashing) does not work for a quotient filter: the
 * buckets not yet split carry twice the keys of the split ones and their runs merge into one
 * cluster. With an {@link ExpandableFilterBuilder#expectedKeys} hint {@code n} the table starts at
 * {@code n / 0.85} slots rounded up to 9 significant bits, so at {@code n} keys it is at load 0.85
 * within 0.4%.
 *
 * <p>{@link #compact()} gives memory back after removes: it halves the table while the entries fit
 * at load 0.85 (same known bits, same {@code m}), so a grown filter keeps its growth's wide slots.
 * {@link #shrinkToFit()} goes on to the table of a filter built for the entries: fingerprints cut
 * to the sized length, {@code m} up to {@code f / 1.125}, the memory per key of a sized filter.
 *
 * <h2>Void entries</h2>
 *
 * A generation's fingerprints run out after {@code r_j} more doublings; such a void entry matches
 * every key of its run and is duplicated into both new runs at the next doubling (as the Aleph
 * filter does; {@code ExpandableGrowth} has the details): never a false negative, {@code m}
 * unchanged, and at most a fraction {@code m ≤ f} of the slots.
 *
 * <h2>Deletes, duplicates and union</h2>
 *
 * Every add stores an entry (a multiset, as the Cuckoo filter): a key added twice stays present
 * until removed twice. A run keeps at most {@code ExpandableDuplicates.MAX_COPIES} (8) copies of
 * one entry, so that equal keys cost a bounded run instead of one as long as their adds: an add
 * past the bound stores nothing and a remove of such a saturated entry leaves it; both count in
 * {@link #numKeys()}, which so may exceed the entries stored (the key may answer "maybe" after its
 * last remove, never "absent" before it). {@link #removeHash} deletes, in the key's run, the
 * matching entry with the longest fingerprint: any other key that entry matches is also matched by
 * every shorter matching entry, so no other present key loses its last match. A remove that finds
 * no matching entry returns {@code false} and changes nothing: that is how a never-added key is
 * detected, except when it is a false positive (probability about {@link #modelledFpRate()}): then
 * it deletes another key's entry, which may make that key answer "absent" — no filter can tell, so
 * remove only keys that were added. Removing a void entry removes the copy in the key's run; the
 * copies in the other runs stay (never a false negative; they take slots until the filter is
 * rebuilt). {@link #union} adds another filter's entries; its rate is the sum of both.
 *
 * <h2>Serialized form</h2>
 *
 * The container (type {@code expandable}, id 13) holds the table as it is in memory (the package's
 * {@code ExpandableForm}, payload version 3, in blocks of 64 slots); a filter wrapped from a buffer
 * queries it in place and is read-only ({@link #copy()} gives a mutable one). Past one buffer's 2
 * GiB it is written streamed and mapped in segments, zero-copy, up to 2^31 − 9 words (16 GiB).
 *
 * <h2>Threads</h2>
 *
 * <b>Any number of writers and readers.</b> Removes, unions, compacts take a write lock ({@link
 * java.util.concurrent.locks.StampedLock}); adds are combined ({@code ExpandableCombiner}): an add
 * that finds the lock taken queues its hash and the holder applies the queue before it lets the
 * lock go, so k adders together cost about what one does (no parallel speedup), and an add returns
 * once its key is in the table. A query reads optimistically, as a seqlock, and keeps its answer if
 * no writer took the lock meanwhile; else it asks again under the read lock. A doubling's step and
 * an insert or delete are writes like any other, so a query never misses a key whose add returned
 * before it began ({@code ExpandableConcurrencyTest}). {@link #copy()} and the other side of a
 * {@link #union} are read under the read lock (a copy keeps a doubling under way; a union ends it).
 * The serialized form ends a doubling under way under the write lock, then holds on to it as the
 * read lock: a form is of one table (its payload unchanged), held from the container's header to
 * the payload's last byte, so a save while others add gives one moment's filter. A query that reads
 * half-written metadata ends (its loops are bounded) and is asked again under the lock.
 */
public final class ExpandableFilter implements MutableFilter {

  private final KeyScheme keyScheme;
  final double fpRate;
  int startLog; // log2 of the first slot count, rounded down; lowered by a compact() below it
  int mant; // the slot count's significant bits past the leading one (ExpandableMath.slots)
  int log;
  long slots;
  int width;
  int newBits; // the fingerprint length of entries added now: the budget policy's, per doubling
  long used;
  long numKeys;
  long[] entriesByKnownBits; // [h]: the entries with h = log + r known hash bits
  ExpandableMigration migration; // the doubling under way: the old table and its cursor; or null
  long lastMoved; // the old table's entries the last write moved into the new one

  /** The slots on the heap; {@code null} when the filter reads them in place ({@link #wrapped}). */
  long[] words;

  ExpandableSlots.Heap heap; // words as the kernel reads them (kept with it); null when wrapped

  /** The slot words in little-endian buffers (one, or segments past 2 GiB), read-only, or null. */
  final ExpandableSegments wrapped;

  final ExpandableSlots.Words wrappedWords; // wrapped read as words by the kernel; null on heap

  /** A read-only view of another's heap array, valid under its read lock (a holdStill's). */
  final boolean heldView;

  final StampedLock lock = new StampedLock(); // writers exclusive, queries optimistic: "Threads"
  final ExpandableCombiner combiner = new ExpandableCombiner(); // adds queued for the lock holder
  final ExpandableSpare spare = new ExpandableSpare(); // the next table, allocated ahead

  private final BatchScratch.ChunkProbe chunkProbe = // the batch form's probe of one chunk
      (hashes, at, chunk) -> ExpandableReads.probeChunk(this, hashes, at, chunk);

  /** Fixed parts; {@link ExpandableOps#of} sets the table and counts (a form's: validated). */
  ExpandableFilter(
      KeyScheme keyScheme, double fpRate, int mant, ExpandableSegments wrapped, boolean heldView) {
    this.keyScheme = keyScheme;
    this.fpRate = fpRate;
    this.mant = mant;
    this.wrapped = wrapped;
    this.wrappedWords = wrapped == null ? null : wrapped.words();
    this.heldView = heldView;
  }

  /** {@return a builder: target rate {@code fpRate} (default 1%), optional key-count hint} */
  public static ExpandableFilterBuilder builder() {
    return new ExpandableFilterBuilder();
  }

  @Override
  public boolean mayContainHash(long hash64) {
    if (words == null) {
      return ExpandableKernel.mayContain(wrappedWords, slots, width, hash64);
    }
    // optimistic (see "Threads" in the class comment); else again under the read lock
    long stamp = lock.tryOptimisticRead();
    ExpandableSlots.Heap w = heap;
    long n = slots;
    int wd = width;
    ExpandableMigration m = migration; // a doubling under way: the old table too
    if (lock.validate(stamp)) {
      try {
        boolean found =
            m == null
                ? ExpandableKernel.mayContain(w, n, wd, hash64)
                : m.mayContain(w, n, wd, hash64);
        if (lock.validate(stamp)) {
          return found;
        }
      } catch (RuntimeException torn) {
        ExpandableReads.rethrowIfUntouched(lock, stamp, torn);
      }
    }
    return ExpandableReads.mayContainLocked(this, hash64);
  }

  /**
   * The batch form: per chunk of 64 hashes, two passes (the kernel's {@code probeChunk}): first
   * every key's block metadata and home value word (independent loads whose misses overlap), then
   * each occupied key's run. The answers are those of {@link #mayContainHash}; on the heap the
   * chunk is read optimistically as a single query is (see "Threads"), again under the read lock if
   * a writer came between.
   */
  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    return BatchScratch.batch(hashes, off, len, resultBits, chunkProbe);
  }

  /** {@return whether the filter reads its slots in place from a buffer; read-only} */
  boolean isWrapped() {
    return words == null;
  }

  /**
   * Stores one entry (always {@code true}), beginning a doubling at load {@value
   * ExpandableMath#MAX_LOAD}, and moves a share of a doubling under way (see above). Throws {@link
   * IllegalStateException} past the largest table or when saturated (see the class comment): every
   * key stays present.
   */
  @Override
  public boolean addHash(long hash64) {
    ExpandableOps.add(this, hash64);
    return true;
  }

  /**
   * Deletes one entry of the key whose 64-bit hash this is: in its run, the matching entry with the
   * longest fingerprint. Remove only keys that were added (see the class comment).
   *
   * @return {@code false} if no entry matches the key; then nothing changed
   */
  public boolean removeHash(long hash64) {
    return ExpandableOps.remove(this, hash64);
  }

  /** Deletes one entry of a {@code long} key; see {@link #removeHash}. */
  public boolean remove(long key) {
    return removeHash(keyScheme == KeyScheme.XXPH3 ? KeyHash.hash64(key) : keyScheme.hash(key));
  }

  /** Deletes one entry of a byte-string key; see {@link #removeHash}. */
  public boolean remove(byte[] key) {
    return removeHash(keyScheme.hash(key, 0, key.length));
  }

  /** Deletes one entry of a text key (its UTF-8 bytes); see {@link #removeHash}. */
  public boolean remove(CharSequence key) {
    return removeHash(keyScheme.hash(key));
  }

  @Override
  public KeyScheme keyScheme() {
    return keyScheme;
  }

  /** A copy of the table (replaced on every doubling, so not shared); a wrapped one shares. */
  @Override
  public ExpandableFilter withKeyScheme(KeyScheme scheme) {
    Schemes.check(this, scheme);
    return scheme == keyScheme ? this : ExpandableOps.copyOf(this, scheme, words == null, false);
  }

  /**
   * Adds every entry of {@code other} to this filter, doubling the smaller of the two first (a copy
   * of {@code other}'s entries is expanded; {@code other} is not changed). Afterwards every key of
   * either is present. Where the slot counts are a power of two apart (every filter grown without a
   * hint) each entry is expanded exactly and the rate is at most the sum of both; otherwise an
   * entry, which stands for an interval of key positions {@code 2^(−r)/n} wide, is replaced by the
   * one or two cells of this table at least as wide that cover it, so its share of the rate grows
   * at most fourfold. {@link #modelledFpRate()} reports the result exactly. The rate of a union is
   * the sum of both rates (an entry cannot learn hash bits it never kept), so it passes the target
   * when both are above half of it; build each at {@code f / k} to merge {@code k} within {@code
   * f}. The memory is that of adding {@code other}'s keys to this filter. Past the target, each
   * later generation is budgeted as if {@code f / 8} were left.
   *
   * @param other a filter built for the same target rate
   * @throws IllegalArgumentException if the target rates differ, naming both
   * @throws dev.sieve.KeySchemeException if the key schemes differ
   * @throws UnsupportedOperationException if this filter wraps a buffer (read-only)
   * @throws IllegalStateException if the merged filter is saturated (see the class comment): this
   *     filter's keys stay present, only part of {@code other}'s were added
   */
  public void union(ExpandableFilter other) {
    ExpandableOps.union(this, other);
  }

  /**
   * Returns memory after removes: halves the table while its entries fit the half at load at most
   * {@value ExpandableMath#MAX_LOAD}, down to the smallest table. A halving moves each entry's low
   * quotient bit into its fingerprint, so every entry knows the same hash bits and the modelled
   * rate is unchanged (no key becomes absent); the slots get one bit wider where the longest
   * fingerprints need it. It first ends a doubling under way; each halving rebuilds the whole table
   * (time and a second table's memory while it runs); nothing shrinks by itself.
   *
   * @return the number of halvings, 0 when the entries do not fit half the table
   * @throws UnsupportedOperationException if this filter wraps a buffer (read-only)
   */
  public int compact() {
    return ExpandableOps.compact(this);
  }

  /**
   * {@link #compact()}, then the entries re-fitted into the table {@code expectedKeys(entries())}
   * gives, fingerprints cut to that filter's length (a prefix of their hash bits: no key becomes
   * absent): a filter built for its keys. The modelled rate rises, to at most {@code f / 1.125}
   * with the adds before the next doubling; where no fit does (a union past the rate) the table
   * stays as compacted. A whole-table rebuild ({@code ExpandableCover}).
   *
   * @return whether the table was re-fitted
   * @throws UnsupportedOperationException if this filter wraps a buffer (read-only)
   */
  public boolean shrinkToFit() {
    return ExpandableOps.shrinkToFit(this);
  }

  @Override
  public long numKeys() {
    return numKeys;
  }

  /** {@return {@link #numKeys()}: counted exactly} */
  @Override
  public double approximateElementCount() {
    return numKeys;
  }

  @Override
  public long sizeInBits() { // both tables while a doubling holds both, a spare once ready
    long held = ExpandableMigration.oldBits(migration) + spare.readyBits();
    return ExpandableSlots.tableBits(slots, width) + held;
  }

  /**
   * The expected number of entries matching a random absent key, {@code Σ 2^(−r_e) / n} (an upper
   * bound on the rate): at most the target for any adds and removes of present keys.
   */
  @Override
  public double modelledFpRate() {
    return Math.min(
        1.0, ExpandableMath.modelFpRate(entriesByKnownBits) * Math.scalb(1.0, log) / slots);
  }

  /** {@return the target false-positive rate} */
  public double fpRate() {
    return fpRate;
  }

  /** {@return the doublings since creation or a re-fit, less the halvings of {@link #compact()}} */
  public int doublings() {
    return log - startLog;
  }

  /** {@return the fingerprint length of an entry added now} */
  public int fingerprintBits() {
    return newBits;
  }

  /** {@return the number of entries stored (void copies count each; mid-doubling, as after it)} */
  public long entries() {
    return used + ExpandableMigration.pending(this);
  }

  /** {@return entries per slot; the table doubles past {@value ExpandableMath#MAX_LOAD}} */
  public double load() {
    return (double) entries() / slots;
  }

  /** {@return an independent, mutable copy on the heap (of a wrapped filter too)} */
  public ExpandableFilter copy() {
    return ExpandableOps.copy(this);
  }

  /** {@return the void entries (fingerprint run out), for the package's tests} */
  long voidEntries() {
    return entriesByKnownBits[log] + 2 * ExpandableMigration.pending(this);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ExpandableFilter f && ExpandableOps.sameState(this, f);
  }

  @Override
  public int hashCode() {
    return ExpandableOps.hash(this);
  }

  @Override
  public String toString() {
    return ExpandableOps.describe(this);
  }
}
