package dev.sieve.xor;

import dev.sieve.internal.BatchScratch;
import dev.sieve.math.FingerprintMath;
import java.nio.ByteBuffer;

/**
 * An Xor filter with 8-bit fingerprints (Graf and Lemire, "Xor Filters: Faster and Smaller Than
 * Bloom and Cuckoo Filters", 2019): a static filter of about 9.84 bits per key at a 0.39%
 * false-positive rate.
 *
 * <h2>The idea</h2>
 *
 * Each key has a fingerprint {@code fp(x)} and three slots {@code h0(x), h1(x), h2(x)}, one in each
 * third of a table {@code B} of 8-bit values. The table is solved so that for every key {@code
 * B[h0] ^ B[h1] ^ B[h2] = fp(x)}; a query reads three bytes and compares. The system is solved by
 * peeling the 3-hypergraph of keys (see {@link XorConstruction}): a slot used by one key is that
 * key's to set, last peeled first. With {@code 1.23 n + 32} slots the random hypergraph peels with
 * high probability.
 *
 * <h2>The math</h2>
 *
 * <ul>
 *   <li>FPR: an absent key's three slots XOR to a value independent of its fingerprint, so it
 *       passes with probability {@code 2^-8 = 0.39%} ({@link
 *       FingerprintMath#xorFingerprintFpRate}).
 *   <li>Space: {@code 8 · (1.23 n + 32) / n → 9.84} bits per key ({@link
 *       FingerprintMath#xorFilterSlots}), 1.23 times the floor {@code log2(1/2^-8) = 8} bits. A
 *       Bloom filter at 0.39% needs 11.5 bits per key (1.44 times the floor).
 * </ul>
 *
 * <h2>The trade-off</h2>
 *
 * Against Bloom filters: smaller and a fixed three memory reads per query, but static (no adds
 * after the build) and about 28 bytes of temporary memory per key during the build (16 per slot
 * plus the copy of the hashes). Against {@link BinaryFuse8Filter}: 9% larger (1.23 against 1.125
 * times the floor) and slower to build (random rather than segment-local memory access), with the
 * same query cost; it is kept for its simplicity and its well-studied construction. Against the
 * Cuckoo filter: smaller at this FPR and never full, but no deletes.
 *
 * <h2>Construction can fail? No, in practice</h2>
 *
 * Duplicate keys are dropped (the filter of a multiset is the filter of its set); construction then
 * tries a deterministic sequence of seeds, growing the table by 1/8 after every 8 failures, and
 * throws {@link dev.sieve.SieveException} after 64 seeds ({@link XorConstruction}). At the base
 * size a seed fails with a measured probability of at most about 15%, so all 64 fail with
 * probability below 2^-128: the exception is not expected to occur; the bound only guarantees
 * termination.
 *
 * <p>Immutable and thread-safe. The serialized form is described in {@link XorFilterFormat} (type
 * tag 0x11). {@link dev.sieve.format.SieveFormat#wrap SieveFormat.wrap} queries that form in place
 * in a {@link ByteBuffer} (heap, direct or memory-mapped) without copying the fingerprints.
 */
public final class Xor8Filter extends FingerprintFilter {

  /** Bits per fingerprint. */
  public static final int FINGERPRINT_BITS = 8;

  // Two storage forms, each with its own hot loop in the query methods: one loop over a common
  // storage interface ran 5-60% slower on heap queries in a quick harness (api-and-house.md, 2);
  // every cold method reads through one accessor instead.
  /**
   * The fingerprints on the heap; {@code null} when the filter wraps a buffer ({@link #wrapped}).
   */
  private final byte[] fingerprints;

  private final int blockLength;
  private final BatchScratch.ChunkProbe chunkProbe = this::probeChunk;

  private Xor8Filter(byte[] fingerprints, ByteBuffer wrapped, XorFilterFormat.Header shape) {
    super(XorFilterFormat.XOR8, FINGERPRINT_BITS, shape, wrapped);
    this.fingerprints = fingerprints;
    this.blockLength = shape.segmentLength();
  }

  /** The construction and the serialized form (written once in {@link FingerprintFilter.Form}). */
  static final Form<byte[], Xor8Filter> FORM =
      Form.of8(Xor8Filter.class, XorFilterFormat.XOR8, "Xor8 filter", Xor8Filter::new);

  /** {@return a builder; the default seed is fixed, so builds are reproducible} */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public boolean mayContainHash(long hash64) {
    byte[] b = fingerprints;
    if (b == null) {
      return wrappedMayContain(hash64);
    }
    if (b.length == 0) {
      return false; // built from no keys
    }
    long h = SeededHash.mix(hash64, seed);
    int n = blockLength;
    int v =
        SeededHash.fingerprint(h)
            ^ b[XorLayout.h0(h, n)]
            ^ b[XorLayout.h1(h, n)]
            ^ b[XorLayout.h2(h, n)];
    return (byte) v == 0;
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
    byte[] b = fingerprints;
    int n = blockLength;
    long s = seed;
    long word = 0;
    for (int i = 0; i < chunk; i++) {
      long h = SeededHash.mix(hashes[at + i], s);
      int v =
          SeededHash.fingerprint(h)
              ^ b[XorLayout.h0(h, n)]
              ^ b[XorLayout.h1(h, n)]
              ^ b[XorLayout.h2(h, n)];
      word |= (long) (((v & 0xFF) - 1) >>> 31) << i;
    }
    return word;
  }

  private boolean wrappedMayContain(long hash64) {
    ByteBuffer b = wrapped;
    if (numSlots == 0) {
      return false;
    }
    long h = SeededHash.mix(hash64, seed);
    int n = blockLength;
    int v =
        SeededHash.fingerprint(h)
            ^ b.get(XorLayout.h0(h, n))
            ^ b.get(XorLayout.h1(h, n))
            ^ b.get(XorLayout.h2(h, n));
    return (byte) v == 0;
  }

  @Override
  int slot(int i) {
    return fingerprints != null ? fingerprints[i] : wrapped.get(i);
  }

  /**
   * {@return an independent copy on the heap (of a wrapped filter: its fingerprints copied out)}
   */
  public Xor8Filter copy() {
    return new Xor8Filter(slots8(), null, shape());
  }

  /** Builds {@link Xor8Filter}s. */
  public static final class Builder extends FingerprintBuilder<Xor8Filter, Builder> {

    private Builder() {
      super(FORM);
    }

    @Override
    protected Xor8Filter buildFromHashes(long[] hashes, int count) {
      return construct(hashes, count);
    }
  }
}
