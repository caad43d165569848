package dev.sieve.expand;

import dev.sieve.KeyScheme;
import dev.sieve.MutableFilter;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.PayloadForms;
import dev.sieve.internal.Schemes;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * An expandable fingerprint filter: a filter that needs no key count up front, grows by doubling
 * one table in place, deletes, and merges, with its false-positive rate at most the target {@code
 * f} at every size. The table is a quotient filter whose entries carry fingerprints of different
 * lengths (InfiniFilter: N. Dayan, I. Bercea, P. Reviriego, R. Pagh, "InfiniFilter: Expanding
 * Filters to Infinity and Beyond", SIGMOD 2023; the Aleph filter: N. Dayan, I. Bercea, R. Pagh,
 * "Aleph Filter: To Infinity in Constant Time", PVLDB 17(11), 2024, arXiv 2404.04703). The layout,
 * the slot format and the loops are in the package's {@code ExpandableKernel}; the figures below
 * are {@link ExpandableMath}'s.
 *
 * <h2>The idea</h2>
 *
 * A key hash {@code h} is stored as its top {@code log + r} bits: the top {@code log} bits are the
 * slot ({@code 2^log} slots), the next {@code r} the fingerprint kept in the slot's run. When the
 * load reaches {@value ExpandableMath#MAX_LOAD} the table doubles: every entry moves to run {@code
 * 2q} or {@code 2q + 1} by its top fingerprint bit and keeps {@code r − 1} bits. An entry therefore
 * always knows the same {@code log + r} bits of its hash: what it gains in address it loses in
 * fingerprint. A query reads one run of one table, however often the table doubled.
 *
 * <h2>The rate, as a sum over generations</h2>
 *
 * An entry knowing {@code k} hash bits matches a random absent key with probability {@code 2^(−k)},
 * before and after any doubling. Call generation {@code j} the entries added after {@code j}
 * doublings, when the table had {@code 2^(s0 + j)} slots, with {@code r_j}-bit fingerprints. At
 * most {@code MAX_LOAD · 2^(s0 + j)} of them are ever present at once, so they add at most {@code
 * MAX_LOAD · 2^(−r_j)} to the rate, whatever came before or after. After {@code g} doublings
 *
 * <pre>
 *   FPR  ≤  Σ_{j=0..g} MAX_LOAD · 2^(−r_j).
 * </pre>
 *
 * With fixed fingerprints ({@code r_j = F}) the bound grows by {@code MAX_LOAD · 2^(−F)} per
 * doubling; with one more bit per doubling ({@code r_j = F + j}, InfiniFilter's simplest widening)
 * it converges to {@code 2 · MAX_LOAD · 2^(−F)} but the slots grow by a bit per doubling. Sieve's
 * widening is {@code r_j = F + floor(log2(j + 1))} ({@link ExpandableMath#widening}: one bit more
 * after 1, 3, 7, 15 doublings): each band of doublings with the same width adds at most {@code
 * MAX_LOAD · 2^(−F)}, so the sum is at most {@code floor(log2(g + 1)) + 1} such terms, 4.75 over
 * the {@value ExpandableMath#MAX_DOUBLINGS} doublings from the smallest table to the largest.
 * {@code F} is the smallest length with {@code MAX_LOAD · 4.75 · 2^(−F) ≤ f} ({@link
 * ExpandableMath#baseFingerprintBits}): 9 bits at 1%, 12 at 0.1%. So the rate stays at most {@code
 * f} at every size, for any sequence of adds and removes of present keys ({@link
 * ExpandableMath#fpRateBound}); {@link #modelledFpRate()} is the exact expectation for the entries
 * present ({@link ExpandableMath#modelFpRate}), about half the bound when the filter only grows.
 *
 * <p>The widening's cost in bits per key: one more bit per slot at doublings 1, 3, 7 and 15 (at the
 * {@code j}-th doubling {@code 1/(j+1)} bits on average), against a bit at every doubling for
 * {@code r_j = F + j}; fixed fingerprints would cost nothing per doubling but need {@code
 * log2(MAX_DOUBLINGS + 1)} ≈ 4.8 more bits in {@code F} from the start to keep the same bound.
 *
 * <h2>Void entries</h2>
 *
 * Generation {@code j}'s fingerprints run out after {@code r_j} more doublings (at 1%: after 9 or
 * more, when the generation is a 512th of the table or less). Such a void entry matches every key
 * of its run; at the next doubling it cannot tell which of the two new runs its key goes to, so it
 * is <b>duplicated into both</b> (as the Aleph filter does), each copy void. That never gives a
 * false negative, and the rate stays bounded: two copies in a table twice the size match as often
 * as one did, so a void entry keeps its generation's share of the bound above. The copies take
 * slots: each generation's void copies are at most a fraction {@code MAX_LOAD · 2^(−r_j)} of the
 * slots, the same sum as the rate, so at most a fraction {@code f} of the table is void copies (1%
 * of the slots at 1%). Merging filters adds up their void copies as it adds up their rates; a table
 * whose void copies pass half of its load {@value ExpandableMath#MAX_LOAD} after a doubling (merged
 * rates adding up to about 0.42) throws {@link IllegalStateException} rather than grow without end:
 * void copies double with the table, so growing cannot lower their share. A filter that was never
 * merged cannot get there: its void share is at most its rate, and the target rate is at most
 * {@value ExpandableMath#MAX_FP_RATE}.
 *
 * <h2>Memory</h2>
 *
 * A slot holds the fingerprint of the newest generation, {@code F + widening(g)} bits, plus {@value
 * ExpandableMath#SLOT_OVERHEAD_BITS} (occupied and continuation bits, and the marker that records
 * the fingerprint length). Bits per key are {@code slotBits / load}: between {@code slotBits /
 * 0.85} just before a doubling and twice that just after it (the memory jump of a doubling; the
 * width grows by one more bit at the doublings after which the widening grows). Measured by {@code
 * ExpandableGrowthTest}, growing from the smallest table with no hint:
 *
 * <pre>
 *   f      keys       doublings  slot bits  bits/key  measured FPR  model   bound (any size)
 *   1%     888,910    14         15         17.7      0.43%         0.41%   0.79%  (just before)
 *   1%     888,911    15         16         37.8                                  (just after)
 *   1%     10^6       15         16         33.5      0.42%         0.41%
 *   0.1%   891,127    14         18         21.2      0.060%        0.052%  0.099%
 *   0.1%   10^6       15         19         39.8      0.061%        0.052%
 * </pre>
 *
 * The measured rate sits at about half the bound: the bound lets every generation be full at its
 * own size, which only removes followed by adds can make true; without removes each generation
 * after the first is at most half full. With an {@link ExpandableFilterBuilder#expectedKeys(long)}
 * hint the table starts at its right size with {@code F}-bit fingerprints (12-bit slots at 1%: 14.1
 * bits per key at load 0.85).
 *
 * <h2>Deletes, duplicates and union</h2>
 *
 * Every add stores an entry (a multiset, as the Cuckoo filter): a key added twice stays present
 * until removed twice. {@link #removeHash} deletes, in the key's run, the matching entry with the
 * longest fingerprint: any other key that entry matches is also matched by every shorter matching
 * entry, so no other present key loses its last match. A remove that finds no matching entry
 * returns {@code false} and changes nothing: that is how a never-added key is detected, except when
 * it is a false positive (probability about {@link #modelledFpRate()}): then it deletes another
 * key's entry, which may make that key answer "absent" — no filter can tell, so remove only keys
 * that were added. Removing a void entry removes the copy in the key's run; the copies in the other
 * runs stay, matching as void entries do (never a false negative; they take slots until the filter
 * is rebuilt). {@link #union} adds the entries of another filter of the same target rate (doubling
 * the smaller first); its rate is then at most the sum of both filters' rates, and {@link
 * #modelledFpRate()} reports it exactly.
 *
 * <h2>Serialized form</h2>
 *
 * The Sieve container ({@code dev.sieve.format.SieveFormat}, type {@code expandable}, id 13) holds
 * the table as it is in memory, with the target rate, the starting size and the counts (the
 * package's {@code ExpandableForm}); a filter read back answers, grows and merges as the one
 * written. A filter wrapped from a buffer or mapped from a file queries the buffer in place and is
 * read-only ({@link #copy()} gives a mutable one); the form is limited to one buffer (2 GiB).
 *
 * <h2>Threads</h2>
 *
 * <b>Not thread-safe.</b> Adds, removes and unions shift entries and doublings replace the table,
 * so a query concurrent with any of them can miss a present key; concurrent queries alone are safe.
 */
public final class ExpandableFilter implements MutableFilter {

  // Anatomy (issue 22): this class holds the API, the shape and the counts; ExpandableKernel, the
  // quotient-filter loops over the raw slots; ExpandableForm, the serialized form.

  static {
    PayloadForms.register(new ExpandableForm.Payload()); // the container's form of type id 13
  }

  private final KeyScheme keyScheme;
  private final double fpRate;
  private final int baseBits;
  private final int startLog;
  private int log;
  private int width;

  /** The slots on the heap; {@code null} when the filter reads them in place ({@link #wrapped}). */
  private long[] words;

  /**
   * The slot words in a buffer, little-endian, read-only; {@code null} for a filter on the heap.
   */
  private final ByteBuffer wrapped;

  private long used;
  private long numKeys;

  /** {@code entriesByKnownBits[h]}: entries knowing {@code h} hash bits ({@code log + r}). */
  private final long[] entriesByKnownBits;

  ExpandableFilter(double fpRate, int startLog) {
    this.keyScheme = KeyScheme.XXPH3;
    this.fpRate = fpRate;
    this.baseBits = ExpandableMath.baseFingerprintBits(fpRate);
    this.startLog = startLog;
    this.log = startLog;
    this.width = baseBits + ExpandableMath.SLOT_OVERHEAD_BITS;
    checkWidth(width);
    this.words = new long[(int) ExpandableSlots.wordsFor(1L << startLog, width)];
    this.wrapped = null;
    this.entriesByKnownBits = new long[65];
  }

  /** A copy of {@code o} under {@code keyScheme}: on the heap, or sharing a wrapped buffer. */
  private ExpandableFilter(ExpandableFilter o, KeyScheme keyScheme, boolean shareWrapped) {
    this.keyScheme = keyScheme;
    this.fpRate = o.fpRate;
    this.baseBits = o.baseBits;
    this.startLog = o.startLog;
    this.log = o.log;
    this.width = o.width;
    this.words = shareWrapped ? null : o.heapWords();
    this.wrapped = shareWrapped ? o.wrapped : null;
    this.used = o.used;
    this.numKeys = o.numKeys;
    this.entriesByKnownBits = o.entriesByKnownBits.clone();
  }

  /**
   * A filter read from its form ({@link ExpandableForm}), already validated there: on {@code
   * words}, or on {@code wrapped} (read-only) when {@code words} is null.
   */
  ExpandableFilter(
      double fpRate,
      int startLog,
      int log,
      int width,
      long[] words,
      ByteBuffer wrapped,
      long used,
      long numKeys,
      long[] entriesByKnownBits) {
    this.keyScheme = KeyScheme.XXPH3;
    this.fpRate = fpRate;
    this.baseBits = ExpandableMath.baseFingerprintBits(fpRate);
    this.startLog = startLog;
    this.log = log;
    this.width = width;
    this.words = words;
    this.wrapped = wrapped;
    this.used = used;
    this.numKeys = numKeys;
    this.entriesByKnownBits = entriesByKnownBits;
  }

  /** {@return a builder: target rate {@code fpRate} (default 1%), optional key-count hint} */
  public static ExpandableFilterBuilder builder() {
    return new ExpandableFilterBuilder();
  }

  /** {@return the smallest table size (log2 of its slots) that holds {@code keys} entries} */
  static int logSlotsFor(long keys) {
    int log = ExpandableMath.MIN_LOG_SLOTS;
    while (log < ExpandableMath.MAX_LOG_SLOTS && keys > maxEntries(log)) {
      log++;
    }
    if (keys > maxEntries(log)) {
      throw new IllegalArgumentException(
          keys + " keys exceed the largest table, " + maxEntries(log) + " entries");
    }
    return log;
  }

  static long maxEntries(int log) {
    return (long) Math.floor(ExpandableMath.MAX_LOAD * (1L << log));
  }

  private static void checkWidth(int width) {
    if (width > ExpandableSlots.MAX_WIDTH) {
      throw new IllegalArgumentException(
          "slots of " + width + " bits exceed the widest, " + ExpandableSlots.MAX_WIDTH);
    }
  }

  @Override
  public boolean mayContainHash(long hash64) {
    if (words == null) {
      return ExpandableKernel.mayContain(wrapped, log, width, hash64);
    }
    return ExpandableKernel.mayContain(words, log, width, hash64);
  }

  /** {@return whether the filter reads its slots in place from a buffer; read-only} */
  boolean isWrapped() {
    return words == null;
  }

  private void checkMutable() {
    if (words == null) {
      throw new UnsupportedOperationException(
          "an expandable filter wrapping a buffer is read-only; copy() gives a mutable one");
    }
  }

  /** {@return the slot words on the heap: a copy (of the array, or of the wrapped buffer)} */
  private long[] heapWords() {
    return words != null ? words.clone() : ExpandableForm.words(wrapped);
  }

  /**
   * Stores one entry (always {@code true}), doubling the table first at load {@value
   * ExpandableMath#MAX_LOAD}. Throws {@link IllegalStateException} past the largest table or when
   * saturated (see the class comment): every key stays present.
   */
  @Override
  public boolean addHash(long hash64) {
    checkMutable();
    ensureRoom(1);
    int bits = newFingerprintBits();
    ExpandableKernel.insert(
        words,
        log,
        width,
        ExpandableKernel.quotient(hash64, log),
        ExpandableKernel.entryValue(hash64, log, bits));
    used++;
    numKeys++;
    entriesByKnownBits[log + bits]++;
    return true;
  }

  /**
   * Deletes one entry of the key whose 64-bit hash this is: in its run, the matching entry with the
   * longest fingerprint. Remove only keys that were added (see the class comment).
   *
   * @return {@code false} if no entry matches the key; then nothing changed
   */
  public boolean removeHash(long hash64) {
    checkMutable();
    int r = ExpandableKernel.remove(words, log, width, hash64);
    if (r < 0) {
      return false;
    }
    used--;
    numKeys = Math.max(0, numKeys - 1);
    entriesByKnownBits[log + r]--;
    return true;
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
    if (scheme == keyScheme) {
      return this;
    }
    return new ExpandableFilter(this, scheme, words == null);
  }

  /**
   * Adds every entry of {@code other} to this filter, doubling the smaller of the two first (a copy
   * of {@code other}'s entries is expanded; {@code other} is not changed). Afterwards every key of
   * either is present; the rate is at most the sum of both rates ({@link #modelledFpRate()}).
   *
   * @param other a filter built for the same target rate
   * @throws IllegalArgumentException if the target rates differ, naming both
   * @throws dev.sieve.KeySchemeException if the key schemes differ
   * @throws UnsupportedOperationException if this filter wraps a buffer (read-only)
   * @throws IllegalStateException if the merged filter is saturated (see the class comment): this
   *     filter's keys stay present, only part of {@code other}'s were added
   */
  public void union(ExpandableFilter other) {
    Schemes.checkSame(this, other);
    checkMutable();
    if (other.fpRate != fpRate) {
      throw new IllegalArgumentException(
          "cannot merge filters of different target rates: " + fpRate + " and " + other.fpRate);
    }
    // a snapshot: other may be this filter
    long[] src = other.heapWords();
    int otherLog = other.log;
    int srcWidth = other.width;
    long otherKeys = other.numKeys;
    while (log < otherLog) {
      expand();
    }
    int needWidth = srcWidth - (log - otherLog);
    if (needWidth > width) {
      rebuild(log, needWidth);
    }
    long mask = (1L << otherLog) - 1;
    ExpandableKernel.forEachRun(
        src,
        otherLog,
        srcWidth,
        (q, first, length) -> {
          for (int k = 0; k < length; k++) {
            insertExpanded(
                q, ExpandableKernel.valueAt(src, srcWidth, (first + k) & mask), otherLog);
          }
        });
    numKeys += otherKeys;
  }

  /**
   * Inserts an entry of a table of {@code 2^fromLog} slots, expanded to this table's size: its top
   * fingerprint bits become quotient bits; where they run out, it is void and goes to every run its
   * known bits allow.
   */
  private void insertExpanded(long q, long value, int fromLog) {
    int r = ExpandableKernel.length(value);
    int d = log - fromLog;
    while (used + (r >= d ? 1 : 1L << (d - r)) > maxEntries(log)) {
      expand();
      d = log - fromLog;
    }
    long bits = value & ((1L << r) - 1);
    if (r >= d) {
      long newQ = (q << d) | (bits >>> (r - d));
      long newValue = (1L << (r - d)) | (bits & ((1L << (r - d)) - 1));
      insertEntry(newQ, newValue);
    } else {
      long prefix = ((q << r) | bits) << (d - r);
      for (long c = 0; c < (1L << (d - r)); c++) {
        insertEntry(prefix | c, 1);
      }
    }
  }

  private void insertEntry(long q, long value) {
    ExpandableKernel.insert(words, log, width, q, value);
    used++;
    entriesByKnownBits[log + ExpandableKernel.length(value)]++;
  }

  private int newFingerprintBits() {
    return baseBits + ExpandableMath.widening(log - startLog);
  }

  private void ensureRoom(long entries) {
    while (used + entries > maxEntries(log)) {
      expand();
    }
  }

  /** Doubles the table: the top fingerprint bit of every entry becomes its low quotient bit. */
  private void expand() {
    if (log >= ExpandableMath.MAX_LOG_SLOTS) {
      throw new IllegalStateException(
          "the table is full at its largest size, 2^" + ExpandableMath.MAX_LOG_SLOTS + " slots");
    }
    int newLog = log + 1;
    int newWidth =
        Math.max(
            width,
            baseBits
                + ExpandableMath.widening(newLog - startLog)
                + ExpandableMath.SLOT_OVERHEAD_BITS);
    rebuild(newLog, newWidth);
    long voidCopies = entriesByKnownBits[log];
    if (voidCopies > maxEntries(log) / 2) {
      // void copies double with the table: past half the load they leave a doubling little room,
      // and growing further cannot lower their share
      throw new IllegalStateException(
          "saturated: void entries fill "
              + voidCopies
              + " of "
              + (1L << log)
              + " slots after a doubling (modelled rate "
              + modelledFpRate()
              + "); merged filters whose rates add up to about "
              + ExpandableMath.MAX_LOAD / 2
              + " do this");
    }
  }

  private void rebuild(int newLog, int newWidth) {
    checkWidth(newWidth);
    long newWords = ExpandableSlots.wordsFor(1L << newLog, newWidth);
    if (newWords > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "a table of 2^" + newLog + " slots of " + newWidth + " bits exceeds a Java array");
    }
    long[] next = new long[(int) newWords];
    used = ExpandableKernel.rebuild(words, log, width, next, newLog, newWidth);
    if (newLog == log + 1) {
      // void entries (knowing exactly log bits) were duplicated; every other entry keeps its count
      entriesByKnownBits[newLog] += 2 * entriesByKnownBits[log];
      entriesByKnownBits[log] = 0;
    }
    words = next;
    log = newLog;
    width = newWidth;
  }

  @Override
  public long numKeys() {
    return numKeys;
  }

  /** {@return {@link #numKeys()}: the filter counts its keys exactly} */
  @Override
  public double approximateElementCount() {
    return numKeys;
  }

  @Override
  public long sizeInBits() {
    return (1L << log) * width;
  }

  /**
   * The expected number of entries matching a random absent key ({@link
   * ExpandableMath#modelFpRate}), an upper bound on the rate: at most the target rate for any
   * sequence of adds and removes of present keys; after a {@link #union}, at most the sum of both.
   */
  @Override
  public double modelledFpRate() {
    return ExpandableMath.modelFpRate(entriesByKnownBits);
  }

  /** {@return the target false-positive rate} */
  public double fpRate() {
    return fpRate;
  }

  /** {@return log2 of the number of slots} */
  public int logSlots() {
    return log;
  }

  /** {@return how many times the table doubled since creation} */
  public int doublings() {
    return log - startLog;
  }

  /** {@return the slot width in bits} */
  public int slotBits() {
    return width;
  }

  /** {@return the fingerprint length of an entry added now} */
  public int fingerprintBits() {
    return newFingerprintBits();
  }

  /** {@return the number of entries stored (void copies count each)} */
  public long entries() {
    return used;
  }

  /** {@return entries per slot; the table doubles past {@value ExpandableMath#MAX_LOAD}} */
  public double load() {
    return (double) used / (1L << log);
  }

  /** {@return an independent, mutable copy on the heap (of a wrapped filter too)} */
  public ExpandableFilter copy() {
    return new ExpandableFilter(this, keyScheme, false);
  }

  /** The serialized form ({@link ExpandableForm}): the payload of this filter in the container. */
  byte[] toByteArray() {
    return ExpandableForm.write(fpRate, startLog, log, width, used, numKeys, words, wrapped);
  }

  /** {@return the number of void entries (fingerprint run out), for the package's tests} */
  long voidEntries() {
    return entriesByKnownBits[log];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ExpandableFilter f
        && f.keyScheme == keyScheme
        && f.fpRate == fpRate
        && f.startLog == startLog
        && f.log == log
        && f.width == width
        && f.used == used
        && f.numKeys == numKeys
        && Arrays.equals(
            f.words != null ? f.words : f.heapWords(), words != null ? words : heapWords());
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(words != null ? words : heapWords()) * 31 + log;
  }

  @Override
  public String toString() {
    return "ExpandableFilter{fpRate="
        + fpRate
        + ", logSlots="
        + log
        + ", doublings="
        + doublings()
        + ", slotBits="
        + width
        + ", keys="
        + numKeys
        + ", entries="
        + used
        + ", load="
        + load()
        + "}";
  }
}
