package dev.sieve.cuckoo;

import dev.sieve.KeyScheme;
import dev.sieve.MutableFilterBuilder;

/**
 * Builds {@link CuckooFilter}s: {@link #fingerprintBits(int)} (4 to 16, default 12) or {@link
 * #fpRate(double)} (the narrowest width whose rate at the design load is at most the target, as
 * {@code CuckooBuild.fingerprintBitsForFpRate}); {@link #create()} gives an empty table of {@code
 * CuckooBuild.bucketsFor(expectedKeys)} buckets.
 *
 * <p>A build from keys stores each distinct key hash once ({@link CuckooFilter#addHashIfAbsent},
 * safe there since nothing was deleted yet), in a table sized for the number of keys given; on the
 * rare key set that does not fit, it grows the table by one bucket in eight and starts again, so a
 * build never fails and never drops a key.
 */
public final class CuckooFilterBuilder extends MutableFilterBuilder<CuckooFilter> {
  @Override
  public CuckooFilterBuilder keyScheme(KeyScheme scheme) {
    super.keyScheme(scheme);
    return this;
  }

  private int fingerprintBits = 12;

  CuckooFilterBuilder() {
    super(KeyScheme.FAST);
  }

  /** Sets the fingerprint width, 4 to 16 bits (default 12). */
  public CuckooFilterBuilder fingerprintBits(int fingerprintBits) {
    CuckooBuild.checkFingerprintBits(fingerprintBits);
    this.fingerprintBits = fingerprintBits;
    return this;
  }

  /** {@return the fingerprint width setting} */
  public int fingerprintBits() {
    return fingerprintBits;
  }

  /** The narrowest width in [4, 16] whose rate at the design load meets it (≥ 0.0116%). */
  @Override
  public CuckooFilterBuilder fpRate(double fpRate) {
    this.fingerprintBits = CuckooBuild.fingerprintBitsForFpRate(fpRate);
    return this;
  }

  @Override
  public CuckooFilterBuilder expectedKeys(long expectedKeys) {
    CuckooBuild.bucketsFor(expectedKeys); // checks the range
    super.expectedKeys(expectedKeys);
    return this;
  }

  @Override
  protected CuckooFilter createEmpty() {
    return CuckooBuild.withBuckets(CuckooBuild.bucketsFor(expectedKeys()), fingerprintBits);
  }

  @Override
  protected CuckooFilter buildFromHashes(long[] hashes, int count) {
    return CuckooBuild.build(hashes, count, fingerprintBits);
  }

  /**
   * The filter {@link #buildFromHashes} gives for the keys' hashes, hashing them a block at a time
   * as it adds them (no array of {@code n} hashes).
   */
  @Override
  protected CuckooFilter buildFromLongKeys(long[] keys) {
    return schemed(CuckooBuild.buildFromKeys(keys, keyScheme(), fingerprintBits));
  }
}
