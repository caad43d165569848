package dev.sieve.bench;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import dev.sieve.math.BloomMath;
import dev.sieve.math.FingerprintMath;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.fastfilter.Filter;
import org.fastfilter.bloom.BlockedBloom;
import org.fastfilter.bloom.Bloom;
import org.fastfilter.cuckoo.Cuckoo16;
import org.fastfilter.cuckoo.Cuckoo8;
import org.fastfilter.utils.Hash;
import org.fastfilter.xor.Xor16;
import org.fastfilter.xor.Xor8;
import org.fastfilter.xor.XorFuse8;

/**
 * The peers: Guava's {@code BloomFilter<Long>} and the filters FastFilter Java 1.0.2 ships (Bloom,
 * BlockedBloom, Xor8, Xor16, XorFuse8 — its only fuse variant in 1.0.2 — Cuckoo8, Cuckoo16). Each
 * is built exactly as its library's own API builds it; the adapters add nothing to the query path.
 *
 * <p>FastFilter draws its hash seed from a random source unless told; it is fixed here ({@link
 * #FASTFILTER_SEED}) so runs are repeatable.
 */
public final class PeerAdapters {
  private PeerAdapters() {}

  /** The hash seed FastFilter's filters are built with. */
  public static final long FASTFILTER_SEED = 0x5eed_f11e_0000_0001L;

  static {
    Hash.setSeed(FASTFILTER_SEED);
  }

  /** All peer kinds. */
  public static List<StructureKind> kinds() {
    Hash.setSeed(FASTFILTER_SEED);
    return List.of(
        new StructureKind(
            "guava-bloom",
            Family.PEER,
            "Guava BloomFilter<Long>, fpp matched to the bits/key: e^(-b·ln²2)",
            true,
            (keys, b) -> GuavaBloom.build(keys, b)),
        new StructureKind(
            "fastfilter-bloom",
            Family.PEER,
            "FastFilter Bloom (standard, k = round(b·ln 2))",
            true,
            (keys, b) -> new FastFilterMembership(Bloom.construct(keys, b), standardModel(b))),
        new StructureKind(
            "fastfilter-blocked-bloom",
            Family.PEER,
            "FastFilter BlockedBloom (integer bits/key; no published FPR model)",
            true,
            (keys, b) ->
                new FastFilterMembership(
                    BlockedBloom.construct(keys, (int) Math.round(b)), Double.NaN)),
        new StructureKind(
            "fastfilter-xor8",
            Family.PEER,
            "FastFilter Xor8 (8-bit fingerprints, 1.23n slots)",
            false,
            (keys, b) ->
                new FastFilterMembership(
                    Xor8.construct(keys), FingerprintMath.xorFingerprintFpRate(8))),
        new StructureKind(
            "fastfilter-xor16",
            Family.PEER,
            "FastFilter Xor16 (16-bit fingerprints, 1.23n slots)",
            false,
            (keys, b) ->
                new FastFilterMembership(
                    Xor16.construct(keys), FingerprintMath.xorFingerprintFpRate(16))),
        new StructureKind(
            "fastfilter-xorfuse8",
            Family.PEER,
            "FastFilter XorFuse8 (fuse graph, 8-bit fingerprints)",
            false,
            (keys, b) ->
                new FastFilterMembership(
                    XorFuse8.construct(keys), FingerprintMath.xorFingerprintFpRate(8))),
        new StructureKind(
            "fastfilter-cuckoo8",
            Family.PEER,
            "FastFilter Cuckoo8 (8-bit fingerprints, buckets of 4)",
            false,
            (keys, b) -> FastFilterMembership.cuckoo(Cuckoo8.construct(keys), 8, keys.length)),
        new StructureKind(
            "fastfilter-cuckoo16",
            Family.PEER,
            "FastFilter Cuckoo16 (16-bit fingerprints, buckets of 4)",
            false,
            (keys, b) -> FastFilterMembership.cuckoo(Cuckoo16.construct(keys), 16, keys.length)));
  }

  private static double standardModel(double bitsPerKey) {
    return BloomMath.standardFpRate(
        bitsPerKey, Math.max(1, (int) Math.round(bitsPerKey * BloomMath.LN2)));
  }

  /** A FastFilter filter. */
  static final class FastFilterMembership implements Membership {
    private final Filter filter;
    private final double model;

    FastFilterMembership(Filter filter, double model) {
      this.filter = filter;
      this.model = model;
    }

    /**
     * A cuckoo filter's model ({@link FingerprintMath#cuckooFpRate}, buckets of 4) at the occupancy
     * measured from the filter's size: keys over slots.
     */
    static FastFilterMembership cuckoo(Filter filter, int fingerprintBits, int numKeys) {
      double slots = (double) filter.getBitCount() / fingerprintBits;
      double load = slots == 0 ? 0 : Math.min(1.0, numKeys / slots);
      return new FastFilterMembership(
          filter, FingerprintMath.cuckooFpRate(fingerprintBits, 4, load));
    }

    @Override
    public boolean mayContain(long key) {
      return filter.mayContain(key);
    }

    @Override
    public long sizeInBits() {
      return filter.getBitCount();
    }

    @Override
    public double modelFpRate() {
      return model;
    }

    @Override
    public Object root() {
      return filter;
    }
  }

  /** Guava's Bloom filter over boxed {@code Long} keys (Guava's own funnel). */
  static final class GuavaBloom implements Membership {
    private final BloomFilter<Long> filter;
    private final int numKeys;
    private long bits = -1; // measured on first use, outside the build

    private GuavaBloom(BloomFilter<Long> filter, int numKeys) {
      this.filter = filter;
      this.numKeys = numKeys;
    }

    static GuavaBloom build(long[] keys, double bitsPerKey) {
      // Guava sizes m = -n·ln(p)/ln²2, so this p gives b bits per key.
      double fpp = Math.exp(-bitsPerKey * BloomMath.LN2 * BloomMath.LN2);
      BloomFilter<Long> filter =
          BloomFilter.create(Funnels.longFunnel(), Math.max(1, keys.length), fpp);
      for (long key : keys) {
        filter.put(key);
      }
      return new GuavaBloom(filter, keys.length);
    }

    /** Guava's serial form: 1 strategy byte, 1 hash-count byte, a 4-byte word count, the words. */
    private static long serializedDataBits(BloomFilter<Long> filter) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try {
        filter.writeTo(out);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return (out.size() - 6L) * 8;
    }

    @Override
    public boolean mayContain(long key) {
      return filter.mightContain(key);
    }

    @Override
    public long sizeInBits() {
      if (bits < 0) {
        bits = serializedDataBits(filter);
      }
      return bits;
    }

    /** Guava picks {@code k = max(1, round(m/n · ln 2))}; the standard model at that k. */
    @Override
    public double modelFpRate() {
      if (numKeys == 0) {
        return 0.0;
      }
      double b = (double) sizeInBits() / numKeys;
      return BloomMath.standardFpRate(b, Math.max(1, (int) Math.round(b * BloomMath.LN2)));
    }

    @Override
    public Object root() {
      return filter;
    }
  }
}
