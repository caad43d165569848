package dev.sieve.cuckoo;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The Cuckoo filter's algorithm over raw storage: addressing, the bit-packed buckets, and the
 * lookup, insert (with kicks and their undo) and delete loops. Static, on a {@code long[]} or a
 * little-endian {@link ByteBuffer}; {@link CuckooFilter} holds the shape and the counts and calls
 * in here. Reference: Fan, Andersen, Kaminsky and Mitzenmacher, "Cuckoo Filter: Practically Better
 * Than Bloom", CoNEXT 2014.
 *
 * <h2>The idea</h2>
 *
 * A key hash gives a nonzero {@code f}-bit fingerprint {@code fp} and a bucket {@code i1}; its
 * alternate bucket is {@code i2 = (H(fp) - i1) mod buckets}, computed from the fingerprint alone
 * ("partial-key cuckoo hashing"), so a stored fingerprint can be moved between its two buckets
 * without knowing its key, and {@code i1 = (H(fp) - i2) mod buckets} holds as well (the map is an
 * involution, which works for any number of buckets, not only powers of two). A key is present when
 * either bucket holds its fingerprint. Adding puts the fingerprint in a free slot of either bucket;
 * if both are full, it evicts a slot's fingerprint to that fingerprint's alternate bucket, and so
 * on, for at most {@value #MAX_KICKS} evictions. Deleting clears one slot holding the fingerprint.
 *
 * <h2>The math</h2>
 *
 * <ul>
 *   <li>FPR: an absent key is compared with the occupied slots of two buckets, {@code 2·4·α} on
 *       average at load {@code α}; fingerprints are uniform over the {@code 2^f - 1} nonzero values
 *       (0 marks a free slot), so {@code FPR = 1 - (1 - 1/(2^f - 1))^(8α) ≈ 8α / 2^f} ({@code
 *       FingerprintMath.cuckooFpRate}): at {@code α = 0.95}, 2.9% for 8 bits, 0.19% for 12, 0.012%
 *       for 16.
 *   <li>Space: {@code f / α} bits per key: 8.4, 12.6 and 16.8 bits at the design load 0.95. That is
 *       {@code f / (α · log2(1/FPR))} times the floor: 1.65 for 8 bits, 1.40 for 12, 1.29 for 16;
 *       the overhead falls as the FPR falls, which is why the Cuckoo filter beats a Bloom filter
 *       (1.44) only below about 0.4%.
 *   <li>Load: with 4-slot buckets and {@value #MAX_KICKS} kicks, adds into a large table reliably
 *       succeed up to about 95% of the slots.
 *   <li>Sizing ({@link CuckooBuild#bucketsFor}; the formula and the loads it gives are in {@link
 *       CuckooFilter}'s class comment, pinned by {@code CuckooSizingTest}): the threshold load of a
 *       table fluctuates by about {@code 1/sqrt(slots)}, and a small table is also hurt by keys
 *       whose two buckets coincide or fall in a small group of buckets; both make the plain {@code
 *       n / (4 · 0.95)} buckets too few for small {@code n} (measured with {@value #MAX_KICKS}
 *       kicks: 0.4% of random key sets of 500 and 3% of sets of 64 did not fit; 7 keys then got 2
 *       buckets). Hence the {@code 1.5 · sqrt(n)} extra buckets ({@code 6 · sqrt(n)} slots), and
 *       the minimum of {@value CuckooBuild#MIN_BUCKETS} buckets, which keeps a handful of keys from
 *       sharing a bucket pair.
 * </ul>
 *
 * <h2>The trade-off</h2>
 *
 * Against Bloom filters: deletes, and smaller at FPRs below about 0.4%, but adds can fail when the
 * table is full and the size is fixed at creation. Against the Xor and Binary Fuse filters: mutable
 * (add and delete at any time), but larger (1.3 to 1.7 times the floor against 1.13 to 1.23) and a
 * query reads two buckets.
 *
 * <h2>Layout and addressing</h2>
 *
 * Bucket {@code b} is the {@code 4f} bits at bit {@code 4f·b} of the words (slot {@code s} at bit
 * {@code 4f·b + f·s}), so 12-bit fingerprints cost 12 bits, not 16; bits past the last bucket are
 * 0. The key hash is first remixed once ({@code h = fmix64(hash + 0x9E3779B97F4A7C15)}, the
 * MurmurHash3 finalizer), then the fingerprint is {@code 1 + floor(lo32(h) · (2^f - 1) / 2^32)} and
 * {@code i1 = floor(hi32(h) · buckets / 2^32)}; {@code H(fp)} is a 32-bit mix of {@code fp} reduced
 * to the bucket range. The remix makes the filter keep its capacity on low-entropy hashes: without
 * it {@code addHash(0)}, {@code addHash(1)}, ... all share one bucket pair and the ninth add fails.
 * A query tests all four slots of a bucket at once with a SWAR zero-lane test. Evictions choose the
 * victim slot from the evicted fingerprint and the kick number, so the filter is deterministic: the
 * same operations give the same bytes.
 *
 * <h2>Why static, with primitive arguments</h2>
 *
 * The hot paths (lookup, batch lookup, insert) are static calls on the raw array that the JIT
 * inlines into the filter's final methods: no interface or virtual call on them. The heap ({@code
 * long[]}) and wrapped ({@link ByteBuffer}) lookups are twins side by side rather than one loop
 * over a common storage interface, which was measurably slower on heap queries. The shape ({@code
 * numBuckets}, {@code fingerprintBits} and the SWAR lane masks {@link #laneOnes}/{@link
 * #laneHighs}) comes in as arguments, read from the filter's final fields.
 */
final class CuckooKernel {

  /** Slots per bucket. */
  static final int SLOTS_PER_BUCKET = 4;

  /** The most evictions one add tries before it gives up. */
  static final int MAX_KICKS = 500;

  /** The length of the {@link #kick} path: bucket, slot and old value per kick. */
  static final int KICK_PATH_LENGTH = 3 * MAX_KICKS;

  private static final long REMIX_CONSTANT = 0x9E37_79B9_7F4A_7C15L; // 2^64 / golden ratio

  private CuckooKernel() {}

  // ---------------------------------------------------------------- shape

  /** {@return the 64-bit words that hold {@code numBuckets} buckets of {@code 4f} bits} */
  static int wordsFor(long numBuckets, int fingerprintBits) {
    return (int) ((numBuckets * SLOTS_PER_BUCKET * fingerprintBits + 63) >>> 6);
  }

  /** {@return a 1 in the lowest bit of each of a bucket's four {@code f}-bit lanes} */
  static long laneOnes(int fingerprintBits) {
    long ones = 0;
    for (int s = 0; s < SLOTS_PER_BUCKET; s++) {
      ones |= 1L << (s * fingerprintBits);
    }
    return ones;
  }

  /** {@return a 1 in the highest bit of each of a bucket's four {@code f}-bit lanes} */
  static long laneHighs(int fingerprintBits) {
    return laneOnes(fingerprintBits) << (fingerprintBits - 1);
  }

  // ---------------------------------------------------------------- addressing

  /**
   * The hash that bucket and fingerprint are taken from: the key hash plus a constant (so hash 0
   * does not stay 0) through the MurmurHash3 64-bit finalizer, a bijection whose every output bit
   * depends on every input bit. Without it, hashes that differ only in their low bits (sequential
   * {@code addHash(i)}) share their high 32 bits, hence their bucket pair, and a table of any size
   * refuses the ninth.
   */
  static long remix(long hash64) {
    long h = hash64 + REMIX_CONSTANT;
    h = (h ^ (h >>> 33)) * 0xFF51_AFD7_ED55_8CCDL;
    h = (h ^ (h >>> 33)) * 0xC4CE_B9FE_1A85_EC53L;
    return h ^ (h >>> 33);
  }

  /** The nonzero fingerprint of a {@link #remix remixed hash}, in [1, 2^f - 1]. */
  static int fingerprint(long h, int fingerprintBits) {
    return 1 + (int) (((h & 0xFFFF_FFFFL) * ((1 << fingerprintBits) - 1)) >>> 32);
  }

  /** The primary bucket of a {@link #remix remixed hash}. */
  static int primaryBucket(long h, int numBuckets) {
    return (int) (((h >>> 32) * numBuckets) >>> 32);
  }

  /** The other bucket of {@code fingerprint} in {@code bucket}: {@code (H(fp) - bucket) mod n}. */
  static int alternateBucket(int bucket, int fingerprint, int numBuckets) {
    int x = fingerprint * 0x9E37_79B9;
    x ^= x >>> 16;
    x *= 0x85EB_CA6B;
    x ^= x >>> 13;
    int offset = (int) (((x & 0xFFFF_FFFFL) * numBuckets) >>> 32);
    int alt = offset - bucket;
    return alt < 0 ? alt + numBuckets : alt;
  }

  // ---------------------------------------------------------------- bit-packed slots

  /** Bucket {@code bucket}, its {@code bucketBits = 4f} bits in the low bits. */
  static long bucketAt(long[] words, int bucket, int bucketBits) {
    long bit = (long) bucket * bucketBits;
    int w = (int) (bit >>> 6);
    int s = (int) (bit & 63);
    long v = words[w] >>> s;
    if (s + bucketBits > 64) {
      v |= words[w + 1] << (64 - s);
    }
    return bucketBits == 64 ? v : v & ((1L << bucketBits) - 1);
  }

  /** {@link #bucketAt(long[], int, int)} from little-endian words in {@code data}. */
  static long bucketAt(ByteBuffer data, int bucket, int bucketBits) {
    long bit = (long) bucket * bucketBits;
    int w = (int) (bit >>> 6);
    int s = (int) (bit & 63);
    long v = data.getLong(w << 3) >>> s;
    if (s + bucketBits > 64) {
      v |= data.getLong((w + 1) << 3) << (64 - s);
    }
    return bucketBits == 64 ? v : v & ((1L << bucketBits) - 1);
  }

  /** Whether one of the bucket's four lanes equals {@code fingerprint} (SWAR zero-lane test). */
  static boolean bucketHas(long bucket, int fingerprint, long laneOnes, long laneHighs) {
    long x = bucket ^ (fingerprint * laneOnes);
    return ((x - laneOnes) & ~x & laneHighs) != 0;
  }

  static int slotAt(long[] words, int bucket, int slot, int fingerprintBits) {
    long b = bucketAt(words, bucket, SLOTS_PER_BUCKET * fingerprintBits);
    return (int) ((b >>> (slot * fingerprintBits)) & ((1L << fingerprintBits) - 1));
  }

  static void setSlot(long[] words, int bucket, int slot, int value, int fingerprintBits) {
    long slotMask = (1L << fingerprintBits) - 1;
    long bit =
        (long) bucket * (SLOTS_PER_BUCKET * (long) fingerprintBits) + (long) slot * fingerprintBits;
    int w = (int) (bit >>> 6);
    int s = (int) (bit & 63);
    long v = value & slotMask;
    words[w] = (words[w] & ~(slotMask << s)) | (v << s);
    int spill = s + fingerprintBits - 64;
    if (spill > 0) {
      long lowMask = (1L << spill) - 1;
      words[w + 1] = (words[w + 1] & ~lowMask) | (v >>> (64 - s));
    }
  }

  /** Puts {@code fingerprint} in the first free slot of {@code bucket}; false if it is full. */
  static boolean putInFreeSlot(long[] words, int bucket, int fingerprint, int fingerprintBits) {
    long b = bucketAt(words, bucket, SLOTS_PER_BUCKET * fingerprintBits);
    long slotMask = (1L << fingerprintBits) - 1;
    for (int s = 0; s < SLOTS_PER_BUCKET; s++) {
      if (((b >>> (s * fingerprintBits)) & slotMask) == 0) {
        setSlot(words, bucket, s, fingerprint, fingerprintBits);
        return true;
      }
    }
    return false;
  }

  /** Clears the first slot of {@code bucket} holding {@code fingerprint}; false if none does. */
  static boolean clearOneSlot(long[] words, int bucket, int fingerprint, int fingerprintBits) {
    long b = bucketAt(words, bucket, SLOTS_PER_BUCKET * fingerprintBits);
    long slotMask = (1L << fingerprintBits) - 1;
    for (int s = 0; s < SLOTS_PER_BUCKET; s++) {
      if (((b >>> (s * fingerprintBits)) & slotMask) == fingerprint) {
        setSlot(words, bucket, s, 0, fingerprintBits);
        return true;
      }
    }
    return false;
  }

  /** {@return the nonzero slots of the first {@code numBuckets} buckets in {@code data}} */
  static long countOccupied(ByteBuffer data, int numBuckets, int fingerprintBits) {
    int bucketBits = SLOTS_PER_BUCKET * fingerprintBits;
    long slotMask = (1L << fingerprintBits) - 1;
    long occupied = 0;
    for (int b = 0; b < numBuckets; b++) {
      long bucket = bucketAt(data, b, bucketBits);
      for (int s = 0; s < SLOTS_PER_BUCKET; s++) {
        if (((bucket >>> (s * fingerprintBits)) & slotMask) != 0) {
          occupied++;
        }
      }
    }
    return occupied;
  }

  // ---------------------------------------------------------------- lookup

  /** Whether either bucket of the key with this hash holds its fingerprint. */
  static boolean mayContain(
      long[] words,
      int numBuckets,
      int fingerprintBits,
      long laneOnes,
      long laneHighs,
      long hash64) {
    long h = remix(hash64);
    int fp = fingerprint(h, fingerprintBits);
    int i1 = primaryBucket(h, numBuckets);
    int bucketBits = SLOTS_PER_BUCKET * fingerprintBits;
    return bucketHas(bucketAt(words, i1, bucketBits), fp, laneOnes, laneHighs)
        || bucketHas(
            bucketAt(words, alternateBucket(i1, fp, numBuckets), bucketBits),
            fp,
            laneOnes,
            laneHighs);
  }

  /** {@link #mayContain(long[], int, int, long, long, long)} on wrapped words. */
  static boolean mayContain(
      ByteBuffer data,
      int numBuckets,
      int fingerprintBits,
      long laneOnes,
      long laneHighs,
      long hash64) {
    long h = remix(hash64);
    int fp = fingerprint(h, fingerprintBits);
    int i1 = primaryBucket(h, numBuckets);
    int bucketBits = SLOTS_PER_BUCKET * fingerprintBits;
    return bucketHas(bucketAt(data, i1, bucketBits), fp, laneOnes, laneHighs)
        || bucketHas(
            bucketAt(data, alternateBucket(i1, fp, numBuckets), bucketBits),
            fp,
            laneOnes,
            laneHighs);
  }

  /**
   * The answers for {@code hashes[at, at + chunk)} as bits of one word (bit {@code i} for {@code
   * hashes[at + i]}, {@code chunk ≤ 64}): both candidate buckets of every key are read without a
   * data-dependent branch, so the reads of neighbouring keys overlap.
   */
  // non-short-circuit | reads both buckets without a data-dependent branch
  @SuppressWarnings("ShortCircuitBoolean")
  static long probeChunk(
      long[] words,
      int numBuckets,
      int fingerprintBits,
      long laneOnes,
      long laneHighs,
      long[] hashes,
      int at,
      int chunk) {
    int bucketBits = SLOTS_PER_BUCKET * fingerprintBits;
    long word = 0;
    for (int i = 0; i < chunk; i++) {
      long h = remix(hashes[at + i]);
      int fp = fingerprint(h, fingerprintBits);
      int i1 = primaryBucket(h, numBuckets);
      boolean hit =
          bucketHas(bucketAt(words, i1, bucketBits), fp, laneOnes, laneHighs)
              | bucketHas(
                  bucketAt(words, alternateBucket(i1, fp, numBuckets), bucketBits),
                  fp,
                  laneOnes,
                  laneHighs);
      word |= (hit ? 1L : 0L) << i;
    }
    return word;
  }

  // ---------------------------------------------------------------- insert and delete

  /**
   * The kick loop, for a fingerprint whose buckets {@code i1} and {@code i2} are both full:
   * starting in one of them (chosen by the fingerprint's low bit), put the carried fingerprint in a
   * slot chosen from it and the kick number, carry the evicted one to its alternate bucket, and
   * stop at the first free slot, for at most {@value #MAX_KICKS} kicks. Every kick is recorded in
   * {@code path} ({@value #KICK_PATH_LENGTH} ints); when the kicks run out they are undone, newest
   * first, so the words are exactly as before.
   *
   * @return whether the fingerprint (and every one it displaced) found a slot
   */
  static boolean kick(
      long[] words, int[] path, int numBuckets, int fingerprintBits, int fp, int i1, int i2) {
    int bucket = (fp & 1) == 0 ? i1 : i2;
    int carried = fp;
    for (int k = 0; k < MAX_KICKS; k++) {
      int slot = ((carried ^ k) * 0x9E37_79B9) >>> 30;
      int evicted = slotAt(words, bucket, slot, fingerprintBits);
      setSlot(words, bucket, slot, carried, fingerprintBits);
      path[3 * k] = bucket;
      path[3 * k + 1] = slot;
      path[3 * k + 2] = evicted;
      carried = evicted;
      bucket = alternateBucket(bucket, carried, numBuckets);
      if (putInFreeSlot(words, bucket, carried, fingerprintBits)) {
        return true;
      }
    }
    for (int k = MAX_KICKS - 1; k >= 0; k--) { // undo, newest first
      setSlot(words, path[3 * k], path[3 * k + 1], path[3 * k + 2], fingerprintBits);
    }
    return false;
  }

  /** Clears one slot holding the key's fingerprint in either bucket; false if neither holds it. */
  static boolean remove(long[] words, int numBuckets, int fingerprintBits, long hash64) {
    long h = remix(hash64);
    int fp = fingerprint(h, fingerprintBits);
    int i1 = primaryBucket(h, numBuckets);
    return clearOneSlot(words, i1, fp, fingerprintBits)
        || clearOneSlot(words, alternateBucket(i1, fp, numBuckets), fp, fingerprintBits);
  }

  // ---------------------------------------------------------------- whole tables (cold paths)

  /** Word {@code i} of {@code words}, or of {@code wrapped} (little-endian) if that is null. */
  static long word(long[] words, ByteBuffer wrapped, int i) {
    return words != null ? words[i] : wrapped.getLong(i << 3);
  }

  /** Whether the first {@code n} words of two tables, each on the heap or wrapped, are equal. */
  static boolean sameWords(long[] a, ByteBuffer aWrapped, long[] b, ByteBuffer bWrapped, int n) {
    if (a != null && b != null) {
      return Arrays.equals(a, b);
    }
    for (int i = 0; i < n; i++) {
      if (word(a, aWrapped, i) != word(b, bWrapped, i)) {
        return false;
      }
    }
    return true;
  }

  /** {@link Arrays#hashCode(long[])} of the first {@code n} words, on the heap or wrapped. */
  static int hashWords(long[] words, ByteBuffer wrapped, int n) {
    if (words != null) {
      return Arrays.hashCode(words);
    }
    int h = 1;
    for (int i = 0; i < n; i++) {
      h = 31 * h + Long.hashCode(word(words, wrapped, i));
    }
    return h;
  }
}
