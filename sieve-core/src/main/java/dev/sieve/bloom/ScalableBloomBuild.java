package dev.sieve.bloom;

/**
 * The build steps of {@link ScalableBloomFilter}'s builder (the checks of its settings, stage 0,
 * the adds of a build over keys); the public {@link ScalableBloomFilterBuilder} holds the API and
 * delegates here.
 */
final class ScalableBloomBuild {
  private ScalableBloomBuild() {}

  /** {@link ScalableBloomFilterBuilder#expectedKeys}'s check: 1 to 2^40. */
  static long checkExpectedKeys(long expectedKeys) {
    if (expectedKeys < 1 || expectedKeys > ScalableBloomFilter.MAX_EXPECTED_KEYS) {
      throw new IllegalArgumentException(
          "expected keys must be in [1, "
              + ScalableBloomFilter.MAX_EXPECTED_KEYS
              + "], got "
              + expectedKeys);
    }
    return expectedKeys;
  }

  /** An empty filter with stage 0 allocated, sized for {@code expectedKeys}. */
  static ScalableBloomFilter createEmpty(
      long expectedKeys, double fpRate, double growthFactor, double tighteningRatio) {
    ScalableBloomStage[] first = new ScalableBloomStage[1];
    try {
      first[0] = ScalableBloomStage.open(0, expectedKeys, fpRate, growthFactor, tighteningRatio);
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return new ScalableBloomFilter(
        expectedKeys, fpRate, growthFactor, tighteningRatio, first, false, false);
  }

  /** {@code filter} (empty) with the first {@code count} hashes added one by one. */
  static ScalableBloomFilter addAll(ScalableBloomFilter filter, long[] hashes, int count) {
    for (int i = 0; i < count; i++) {
      filter.addHash(hashes[i]);
    }
    return filter;
  }
}
