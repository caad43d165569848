package dev.sieve.xor;

import dev.sieve.internal.BatchScratch;
import dev.sieve.math.FingerprintMath;
import java.nio.ByteBuffer;

/**
 * A Binary Fuse filter with 16-bit fingerprints (Graf and Lemire, "Binary Fuse Filters: Fast and
 * Smaller Than Xor Filters", 2022): a static filter of about 18.0 bits per key (3-wise) or 17.2
 * bits per key (4-wise) at a 0.0015% false-positive rate, for large key sets.
 *
 * <h2>The idea</h2>
 *
 * Like the {@link Xor16Filter}, each key has a fingerprint {@code fp(x)} and three (or four) slots
 * whose 16-bit values XOR to it, solved by peeling ({@link XorConstruction}). The slots are not
 * spread over the whole table but over consecutive segments: the table is cut into segments of a
 * power-of-two length, a key picks a start segment and one slot in each of the next {@code arity}
 * segments ({@link FuseLayout}: a multiply-shift, two masks and XORs; no modulo). This "spatially
 * coupled" hypergraph peels like a zipper from both ends and needs far fewer spare slots than a
 * uniform one: the peeling threshold drops from 1.222 to about 1.125 (3-wise) and 1.075 (4-wise).
 *
 * <h2>The math</h2>
 *
 * <ul>
 *   <li>FPR: {@code 2^-16 = 0.0015%}, as for every xor-type filter ({@link
 *       FingerprintMath#xorFingerprintFpRate}).
 *   <li>Space: {@code 16 · slots / n} bits per key with {@code slots ≈ n ·} {@link
 *       FingerprintMath#binaryFuseSizeFactor} rounded up to whole segments ({@link
 *       FingerprintMath#binaryFuseSegmentLength}), the paper's sizing. 3-wise at {@code n = 10^7}:
 *       segments of 2^15 slots, 344 segments, 18.04 bits per key, 1.13 times the floor of 16; at
 *       {@code n = 10^6}: 18.1. Small sets get a larger factor (e.g. about 1.48 at {@code n =
 *       1000}, 5.9 at {@code n = 2}) because the coupling needs many segments to pay off.
 * </ul>
 *
 * <h2>The trade-off</h2>
 *
 * Against {@link Xor16Filter}: about 8% smaller at the same FPR and faster to build (segment-local
 * memory access), same three reads per query; only small sets (under a few thousand keys) are
 * better served by the Xor filter's {@code 1.23 n + 32}. The 4-wise variant ({@link
 * Builder#arity(int)}) saves another 4% for a fourth memory read per query and is worth it only
 * when space matters more than query time. Against Bloom filters: far closer to the floor, but
 * static. Against {@link BinaryFuse8Filter}: twice the size for a 256 times lower FPR. Against the
 * Cuckoo filter: smaller and never full, but no adds or deletes.
 *
 * <h2>Construction can fail? No, in practice</h2>
 *
 * Duplicate keys are dropped; construction then tries a deterministic sequence of seeds, growing
 * the segment count by 1/8 after every 8 failures, and throws {@link dev.sieve.SieveException}
 * after 64 seeds ({@link XorConstruction}). At the paper's sizes a seed fails with a measured
 * probability of at most about 6% (3-wise) or 22% (4-wise, small sets), so all 64 fail with
 * probability below 2^-128: the exception is not expected to occur; the bound only guarantees
 * termination.
 *
 * <p>Immutable and thread-safe. The serialized form is described in {@link XorFilterFormat} (type
 * tag 0x22). {@link dev.sieve.format.SieveFormat#wrap SieveFormat.wrap} queries the serialized form
 * in place in a {@link ByteBuffer} (heap, direct or memory-mapped) without copying the
 * fingerprints.
 */
public final class BinaryFuse16Filter extends FuseFilter {

  /** Bits per fingerprint. */
  public static final int FINGERPRINT_BITS = 16;

  // Two storage forms, each with its own hot loop in the query methods: one loop over a common
  // storage interface ran 5-60% slower on heap queries in a quick harness (api-and-house.md, 2);
  // every cold method reads through one accessor instead.
  /**
   * The fingerprints on the heap; {@code null} when the filter wraps a buffer ({@link #wrapped}).
   */
  private final short[] fingerprints;

  private final BatchScratch.ChunkProbe chunkProbe = this::probeChunk;

  private BinaryFuse16Filter(
      short[] fingerprints, ByteBuffer wrapped, XorFilterFormat.Header shape) {
    super(XorFilterFormat.FUSE16, FINGERPRINT_BITS, shape, wrapped);
    this.fingerprints = fingerprints;
  }

  /** The construction and the serialized form (written once in {@link FingerprintFilter.Form}). */
  static final Form<short[], BinaryFuse16Filter> FORM =
      Form.of16(
          BinaryFuse16Filter.class,
          XorFilterFormat.FUSE16,
          "BinaryFuse16 filter",
          BinaryFuse16Filter::new);

  /**
   * {@return a builder for the 3-wise filter; the default seed is fixed, so builds are
   * reproducible}
   */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public boolean mayContainHash(long hash64) {
    short[] b = fingerprints;
    if (b == null) {
      return wrappedMayContain(hash64);
    }
    if (b.length == 0) {
      return false; // built from no keys
    }
    long h = SeededHash.mix(hash64, seed);
    int h0 = FuseLayout.h0(h, segmentCountLength);
    int len = segmentLength;
    int mask = segmentLengthMask;
    int v =
        SeededHash.fingerprint(h)
            ^ b[h0]
            ^ b[FuseLayout.h1(h, h0, len, mask)]
            ^ b[FuseLayout.h2(h, h0, len, mask)];
    if (arity == 4) {
      v ^= b[FuseLayout.h3(h, h0, len, mask)];
    }
    return (short) v == 0;
  }

  /**
   * {@inheritDoc}
   *
   * <p>One tight loop per chunk of 64 hashes without a branch per key: the seeded mix and the
   * fingerprint reads of neighbouring keys overlap.
   */
  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    if (fingerprints == null || fingerprints.length == 0) {
      return BatchScratch.singles(this, hashes, off, len, resultBits);
    }
    return BatchScratch.batch(hashes, off, len, resultBits, chunkProbe);
  }

  private long probeChunk(long[] hashes, int at, int chunk) {
    short[] b = fingerprints;
    long s = seed;
    long segments = segmentCountLength;
    int len = segmentLength;
    int mask = segmentLengthMask;
    long word = 0;
    // the arity test is loop-invariant: the JIT unswitches the loop on it
    boolean fourWise = arity == 4;
    for (int i = 0; i < chunk; i++) {
      long h = SeededHash.mix(hashes[at + i], s);
      int h0 = FuseLayout.h0(h, segments);
      int v =
          SeededHash.fingerprint(h)
              ^ b[h0]
              ^ b[FuseLayout.h1(h, h0, len, mask)]
              ^ b[FuseLayout.h2(h, h0, len, mask)];
      if (fourWise) {
        v ^= b[FuseLayout.h3(h, h0, len, mask)];
      }
      word |= (long) (((v & 0xFFFF) - 1) >>> 31) << i;
    }
    return word;
  }

  private boolean wrappedMayContain(long hash64) {
    ByteBuffer b = wrapped;
    if (numSlots == 0) {
      return false;
    }
    long h = SeededHash.mix(hash64, seed);
    int h0 = FuseLayout.h0(h, segmentCountLength);
    int len = segmentLength;
    int mask = segmentLengthMask;
    int v =
        SeededHash.fingerprint(h)
            ^ b.getShort((h0) << 1)
            ^ b.getShort((FuseLayout.h1(h, h0, len, mask)) << 1)
            ^ b.getShort((FuseLayout.h2(h, h0, len, mask)) << 1);
    if (arity == 4) {
      v ^= b.getShort((FuseLayout.h3(h, h0, len, mask)) << 1);
    }
    return (short) v == 0;
  }

  @Override
  int slot(int i) {
    return fingerprints != null ? fingerprints[i] : wrapped.getShort(i << 1);
  }

  /**
   * {@return an independent copy on the heap (of a wrapped filter: its fingerprints copied out)}
   */
  public BinaryFuse16Filter copy() {
    return new BinaryFuse16Filter(slots16(), null, shape());
  }

  /** Builds {@link BinaryFuse16Filter}s. */
  public static final class Builder extends FuseFilter.Builder<BinaryFuse16Filter, Builder> {

    private Builder() {
      super(FORM);
    }

    @Override
    protected BinaryFuse16Filter buildFromHashes(long[] hashes, int count) {
      return construct(hashes, count);
    }
  }
}
