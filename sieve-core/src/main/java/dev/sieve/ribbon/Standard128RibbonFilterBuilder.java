package dev.sieve.ribbon;

import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.base.Checks;
import dev.sieve.internal.base.LongList;

/**
 * Builds Standard128Ribbon filters, sized by a bloom-equivalent bits/key (as RocksDB's {@code
 * RibbonFilterPolicy}) or by a target FPR. Keys are given as a batch ({@link FilterBuilder}'s
 * methods) or one at a time ({@link #addHash}, {@link #add(byte[])}, {@link #add(long)}) and then
 * {@link #buildAdded()}.
 *
 * <p>This builder always returns a Ribbon filter: it sizes exactly as RocksDB does but never falls
 * back to Bloom. For the rare key set that no seed solves at RocksDB's size, it grows the filter by
 * one block per eight (12.5%) and tries again, so a build never fails. For RocksDB's own choice
 * between Ribbon and Bloom, use {@code dev.sieve.policy.FilterPolicy} (sieve-rocksdb).
 */
public final class Standard128RibbonFilterBuilder extends FilterBuilder<Standard128RibbonFilter> {
  @Override
  public Standard128RibbonFilterBuilder keyScheme(KeyScheme scheme) {
    super.keyScheme(scheme);
    return this;
  }

  private double bloomBitsPerKey = 10.0;
  private double oneInFpRate = RibbonSizing.oneInFpRateForBloomBitsPerKey(10.0);
  private final LongList added = new LongList(16);

  Standard128RibbonFilterBuilder() {}

  /**
   * Sizes like RocksDB's {@code RibbonFilterPolicy(bitsPerKey)}: the FPR of a FastLocalBloom filter
   * at this many bits/key (default 10, one in 104.9), sanitized as RocksDB does.
   */
  public Standard128RibbonFilterBuilder bloomEquivalentBitsPerKey(
      double bloomEquivalentBitsPerKey) {
    bloomBitsPerKey = RibbonSizing.sanitizeBitsPerKey(bloomEquivalentBitsPerKey);
    oneInFpRate = RibbonSizing.oneInFpRateForBloomBitsPerKey(bloomBitsPerKey);
    return this;
  }

  /**
   * Sizes for a target false-positive rate in (0, 1): {@code oneInFp = 1 / fpRate}. Rates below
   * {@code 2^-32} get the 32-column maximum.
   */
  @Override
  public Standard128RibbonFilterBuilder fpRate(double fpRate) {
    Checks.fpRate(fpRate);
    oneInFpRate = 1.0 / fpRate;
    return this;
  }

  /** {@return the target one-in-FP rate, e.g. 104.9 for the default} */
  public double oneInFpRate() {
    return oneInFpRate;
  }

  /**
   * Adds a key hash for {@link #buildAdded()}. As RocksDB's {@code AddKey}, a hash equal to the
   * previously added one is dropped; other duplicates are kept (they cost a slot of sizing but
   * never make the build fail).
   */
  public Standard128RibbonFilterBuilder addHash(long hash64) {
    if (added.size() == 0 || added.get(added.size() - 1) != hash64) {
      if (added.size() >= MAX_KEYS) {
        throw new IllegalArgumentException("more than " + MAX_KEYS + " keys in one build");
      }
      added.add(hash64);
    }
    return this;
  }

  /** Adds a byte-string key, hashed by the builder's scheme ({@link KeyHash} by default). */
  public Standard128RibbonFilterBuilder add(byte[] key) {
    return addHash(keyScheme().hash(key, 0, key.length));
  }

  /** Adds a {@code long} key, hashed by the builder's scheme ({@link KeyHash} by default). */
  public Standard128RibbonFilterBuilder add(long key) {
    return addHash(keyScheme().hash(key));
  }

  /** {@return the number of hashes added since the last build} */
  public int numAdded() {
    return added.size();
  }

  /**
   * Builds the Ribbon filter over the keys added one at a time ({@link #add(byte[])}, {@link
   * #add(long)}, {@link #addHash}), then forgets them; with none added, the empty filter.
   */
  public Standard128RibbonFilter buildAdded() {
    Standard128RibbonFilter f = schemed(buildFromHashes(added.array(), added.size()));
    added.clear();
    return f;
  }

  @Override
  protected Standard128RibbonFilter buildFromHashes(long[] hashes, int count) {
    return RibbonBanding.build(hashes, count, oneInFpRate);
  }
}
