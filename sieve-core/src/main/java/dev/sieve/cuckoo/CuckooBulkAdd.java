package dev.sieve.cuckoo;

import static dev.sieve.cuckoo.CuckooKernel.SLOTS_PER_BUCKET;

/**
 * A build's adds: every hash of a key set added as {@link CuckooFilter#addHashIfAbsent} adds it,
 * one after the other, into a table the build has just allocated and not yet published, in one loop
 * over the array. Per key it remixes the hash once (the query and the add each remixed it before),
 * reads both buckets without a data-dependent branch (so the loads of neighbouring keys overlap),
 * tests them for the fingerprint, and ORs the fingerprint into the first free lane of the first
 * bucket that has one (a free lane is zero, so an OR writes it), found by the SWAR zero-lane test
 * rather than a loop over the slots. Only a key whose buckets are both full takes {@link
 * CuckooKernel#kick}, exactly as an add does, so the words are those of the adds one by one.
 */
final class CuckooBulkAdd {
  private final long[] words;
  private final int numBuckets;
  private final int fingerprintBits;
  private int[] path; // the kick path, allocated on the first key that needs kicks
  private long stored;

  /** Adds into {@code words}, an empty table of {@code numBuckets} buckets. */
  CuckooBulkAdd(long[] words, int numBuckets, int fingerprintBits) {
    this.words = words;
    this.numBuckets = numBuckets;
    this.fingerprintBits = fingerprintBits;
  }

  /** {@return the fingerprints stored so far} */
  long stored() {
    return stored;
  }

  /**
   * Adds {@code hashes[0, count)} after the hashes added before, as {@code addHashIfAbsent} adds
   * them one by one, stopping at the first add that finds the table full (the caller then discards
   * the table).
   *
   * @return {@code false} if an add found the table full
   */
  boolean add(long[] hashes, int count) {
    long[] words = this.words;
    int numBuckets = this.numBuckets;
    int fingerprintBits = this.fingerprintBits;
    int bucketBits = SLOTS_PER_BUCKET * fingerprintBits;
    long laneOnes = CuckooKernel.laneOnes(fingerprintBits);
    long laneHighs = CuckooKernel.laneHighs(fingerprintBits);
    long added = 0;
    for (int i = 0; i < count; i++) {
      long h = CuckooKernel.remix(hashes[i]);
      int fp = CuckooKernel.fingerprint(h, fingerprintBits);
      int i1 = CuckooKernel.primaryBucket(h, numBuckets);
      int i2 = CuckooKernel.alternateBucket(i1, fp, numBuckets);
      long b1 = CuckooKernel.bucketAt(words, i1, bucketBits);
      long b2 = CuckooKernel.bucketAt(words, i2, bucketBits);
      if (CuckooKernel.bucketHas(b1, fp, laneOnes, laneHighs)
          | CuckooKernel.bucketHas(b2, fp, laneOnes, laneHighs)) {
        continue; // "maybe" already: a repeat or a false positive stores nothing
      }
      long free1 = freeLanes(b1, laneOnes, laneHighs);
      long free2 = freeLanes(b2, laneOnes, laneHighs);
      if (free1 != 0) {
        orLane(words, i1, bucketBits, free1, fp, fingerprintBits);
      } else if (free2 != 0) {
        orLane(words, i2, bucketBits, free2, fp, fingerprintBits);
      } else if (!kick(fp, i1, i2)) {
        return false;
      }
      added++;
    }
    stored += added;
    return true;
  }

  private boolean kick(int fp, int i1, int i2) {
    if (path == null) {
      path = new int[CuckooKernel.KICK_PATH_LENGTH];
    }
    return CuckooKernel.kick(words, path, numBuckets, fingerprintBits, fp, i1, i2);
  }

  /**
   * The high bit of each free (zero) lane of {@code bucket}, exact for the lowest free lane (a
   * borrow can mark a lane above a zero one, never one below): nonzero iff a lane is free.
   */
  private static long freeLanes(long bucket, long laneOnes, long laneHighs) {
    return (bucket - laneOnes) & ~bucket & laneHighs;
  }

  /**
   * Writes {@code fp} into the lowest free lane of {@code bucket} ({@code free}, from {@link
   * #freeLanes}), the lane {@code putInFreeSlot} takes: an OR, since the lane is zero; a lane that
   * spans two words is written in both.
   */
  private static void orLane(
      long[] words, int bucket, int bucketBits, long free, int fp, int fingerprintBits) {
    long bit =
        (long) bucket * bucketBits + Long.numberOfTrailingZeros(free) - (fingerprintBits - 1);
    int w = (int) (bit >>> 6);
    int s = (int) (bit & 63);
    words[w] |= (long) fp << s;
    if (s + fingerprintBits > 64) {
      words[w + 1] |= (long) fp >>> (64 - s);
    }
  }
}
