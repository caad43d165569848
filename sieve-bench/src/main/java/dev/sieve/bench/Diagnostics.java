package dev.sieve.bench;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.BlockedBloomFilterBuilder;
import dev.sieve.bloom.FastLocalBloomSizing;
import dev.sieve.format.SieveFormat;
import dev.sieve.hash.KeyHash;
import dev.sieve.ribbon.BumpedRibbonFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Diagnostic rows that split a Sieve query into its parts: the cost of Sieve's key hash alone
 * (XXPH3 of the key's eight bytes, RocksDB's {@code GetSliceHash64}), Sieve's blocked Bloom filter
 * probed with a cheap 64-bit mixer in place of XXPH3 (MurmurHash3's {@code fmix64}, the kind of
 * mixer FastFilter uses; not RocksDB-compatible), and the zero-copy path: the blocked Bloom,
 * Standard Ribbon and Bumped Ribbon filters read in place from a direct buffer ({@code -wrapped}).
 * They exist to show where a query's time goes; the report leaves them out by default.
 */
public final class Diagnostics {
  private Diagnostics() {}

  /** MurmurHash3's 64-bit finalizer. */
  static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }

  public static List<StructureKind> kinds() {
    return fixedKinds();
  }

  private static List<StructureKind> fixedKinds() {
    return List.of(
        new StructureKind(
            "sieve-blocked-bloom-fmix",
            Family.SIEVE,
            "diagnostic: Sieve BlockedBloomFilter keyed by fmix64(key) instead of XXPH3 (not"
                + " RocksDB-compatible)",
            true,
            (keys, b) -> PrehashedBlockedBloom.build(keys, b)),
        new StructureKind(
            "blocked-bloom-branch-free",
            Family.SIEVE,
            "diagnostic: bench-only blocked Bloom, FastLocalBloom's layout and probes (512-bit"
                + " blocks, k=6 at 10 bits/key, XXPH3 key hash), queried without early exit",
            true,
            (keys, b) -> BranchFreeBlockedBloom.build(keys, b)),
        new StructureKind(
            "sieve-blocked-bloom-wrapped",
            Family.SIEVE,
            "diagnostic: Sieve BlockedBloomFilter read in place from a direct buffer"
                + " (wrapRocksDbFilterBlock), single lookups",
            true,
            (keys, b) ->
                new SieveFilterMembership(
                    BlockedBloomFilter.wrapRocksDbFilterBlock(
                        direct(
                            BlockedBloomFilter.builder()
                                .bitsPerKey(b)
                                .build(keys)
                                .toRocksDbFilterBlock()),
                        keys.length))),
        new StructureKind(
            "sieve-ribbon-wrapped",
            Family.SIEVE,
            "diagnostic: Sieve Standard128RibbonFilter read in place from a direct buffer"
                + " (wrapRocksDbFilterBlock), single lookups (bits/key = bloom-equivalent)",
            true,
            (keys, b) ->
                new SieveFilterMembership(
                    Standard128RibbonFilter.wrapRocksDbFilterBlock(
                        direct(
                            Standard128RibbonFilter.builder()
                                .bloomEquivalentBitsPerKey(b)
                                .build(keys)
                                .toRocksDbFilterBlock()),
                        keys.length))),
        new StructureKind(
            "sieve-bumped-ribbon-wrapped",
            Family.SIEVE,
            "diagnostic: Sieve BumpedRibbonFilter (7 result bits) read in place from a direct"
                + " buffer (wrap), single lookups",
            false,
            (keys, b) -> {
              BumpedRibbonFilter built = BumpedRibbonFilter.builder().resultBits(7).build(keys);
              // the container records the key scheme; its payload is queried in place
              return new SieveFilterMembership(
                  SieveFormat.wrap(direct(SieveFormat.toBytes(built))));
            }),
        new StructureKind(
            "xxph3-hash-only",
            Family.LIMIT,
            "diagnostic: Sieve's key hash alone (XXPH3 of the 8 key bytes), no memory access",
            false,
            (keys, b) -> new HashOnly()));
  }

  /** A direct buffer holding {@code bytes}, positioned at 0. */
  static ByteBuffer direct(byte[] bytes) {
    ByteBuffer d = ByteBuffer.allocateDirect(bytes.length);
    d.put(bytes).flip();
    return d;
  }

  static final class PrehashedBlockedBloom implements Membership {
    private final BlockedBloomFilter filter;

    private PrehashedBlockedBloom(BlockedBloomFilter filter) {
      this.filter = filter;
    }

    static PrehashedBlockedBloom build(long[] keys, double bitsPerKey) {
      long[] hashes = new long[keys.length];
      for (int i = 0; i < keys.length; i++) {
        hashes[i] = fmix64(keys[i]);
      }
      BlockedBloomFilterBuilder builder = BlockedBloomFilter.builder().bitsPerKey(bitsPerKey);
      return new PrehashedBlockedBloom(builder.buildFromHashes(hashes));
    }

    @Override
    public boolean mayContain(long key) {
      return filter.mayContainHash(fmix64(key));
    }

    @Override
    public long sizeInBits() {
      return filter.sizeInBits();
    }

    @Override
    public double modelFpRate() {
      return filter.modelledFpRate();
    }

    @Override
    public Object root() {
      return filter;
    }
  }

  static final class BranchFreeBlockedBloom implements Membership {
    private final BlockVariantBloom filter;
    private final double model;

    private BranchFreeBlockedBloom(BlockVariantBloom filter, double model) {
      this.filter = filter;
      this.model = model;
    }

    static BranchFreeBlockedBloom build(long[] keys, double bitsPerKey) {
      int k =
          FastLocalBloomSizing.chooseNumProbes(
              FastLocalBloomSizing.rocksDbMillibitsPerKey(bitsPerKey));
      BlockVariantBloom f = new BlockVariantBloom(keys.length, bitsPerKey, 512, k, false);
      for (long key : keys) {
        f.addHash(KeyHash.hash64(key));
      }
      double b = (double) f.sizeInBits() / Math.max(1, keys.length);
      return new BranchFreeBlockedBloom(f, dev.sieve.math.BloomMath.cacheLocalFpRate(b, k, 512));
    }

    @Override
    public boolean mayContain(long key) {
      return filter.mayContainHashBranchFree(KeyHash.hash64(key));
    }

    @Override
    public long sizeInBits() {
      return filter.sizeInBits();
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

  static final class HashOnly implements Membership {
    @Override
    public boolean mayContain(long key) {
      return KeyHash.hash64(key) == 0x5eedL;
    }

    @Override
    public long sizeInBits() {
      return 0;
    }

    @Override
    public double modelFpRate() {
      return Double.NaN;
    }
  }
}
