package dev.sieve.policy;

import dev.sieve.registry.FilterType;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link FilterPolicy} costs on an {@link LsmShape}: per level, the filter type the policy
 * picks, the filter memory, the modelled FPR and the expected number of false-positive probes (each
 * one a wasted data-block read), next to what all-Bloom and all-Ribbon would cost on that level.
 * Sizes are RocksDB's exact filter-block lengths (trailers included, Bloom fallback for small
 * filters included, {@code optimize_filters_for_memory=false}); the Ribbon rounding bias that
 * RocksDB takes from each filter's first key is taken at its mean, {@code 2^31}.
 *
 * @param levels one entry per level, level 0 first
 */
public record LsmFilterReport(List<Level> levels) {

  /**
   * Copies the levels.
   *
   * @param levels one entry per level, level 0 first
   */
  public LsmFilterReport {
    levels = List.copyOf(levels);
  }

  /**
   * One level.
   *
   * @param level the level, 0 = L0
   * @param levelish the level as {@code bloom_before_level} compares it (L0 = flush = −1)
   * @param type the type the policy picks: {@link FilterType#BLOCKED_BLOOM} (RocksDB's
   *     FastLocalBloom) or {@link FilterType#RIBBON} (Standard128Ribbon, falling back to
   *     FastLocalBloom where RocksDB does), a {@linkplain FilterType#isRocksDbCompatible() RocksDB
   *     type} of the registry
   * @param keys keys held
   * @param filters SST filters on the level
   * @param bytes filter memory of the policy's choice, in bytes
   * @param fpRate the level's modelled FPR (key-weighted over its filters)
   * @param probes filter probes the level receives
   * @param expectedFalsePositiveProbes {@code probes · fpRate}
   * @param bloomBytes the memory all-Bloom would take on this level
   * @param ribbonBytes the memory all-Ribbon would take on this level
   * @param bloomFpRate the FPR all-Bloom would give
   * @param ribbonFpRate the FPR all-Ribbon would give
   */
  public record Level(
      int level,
      int levelish,
      FilterType type,
      long keys,
      long filters,
      long bytes,
      double fpRate,
      long probes,
      double expectedFalsePositiveProbes,
      long bloomBytes,
      long ribbonBytes,
      double bloomFpRate,
      double ribbonFpRate) {

    /**
     * Checks the type.
     *
     * @throws IllegalArgumentException for a type without a RocksDB filter block
     */
    public Level {
      checkRocksDbType(type);
    }

    /** {@return filter bits per key of the policy's choice (0 for an empty level)} */
    public double bitsPerKey() {
      return keys == 0 ? 0.0 : 8.0 * bytes / keys;
    }
  }

  /**
   * Checks that {@code type} is one of the registry's RocksDB types.
   *
   * @param type the type
   * @return the type
   * @throws IllegalArgumentException naming the allowed types for another one
   */
  static FilterType checkRocksDbType(FilterType type) {
    Objects.requireNonNull(type, "type");
    if (!type.isRocksDbCompatible()) {
      throw new IllegalArgumentException(
          "filter type "
              + type
              + " has no RocksDB filter block; expected "
              + FilterType.BLOCKED_BLOOM
              + " or "
              + FilterType.RIBBON);
    }
    return type;
  }

  /** RocksDB's name of a type, as the table prints it (FAST_LOCAL_BLOOM, STANDARD128_RIBBON). */
  private static String rocksDbName(FilterType type) {
    return type == FilterType.RIBBON ? "STANDARD128_RIBBON" : "FAST_LOCAL_BLOOM";
  }

  /** {@return the policy's total filter memory} */
  public long totalBytes() {
    return levels.stream().mapToLong(Level::bytes).sum();
  }

  /** {@return total memory if every level used FastLocalBloom} */
  public long allBloomBytes() {
    return levels.stream().mapToLong(Level::bloomBytes).sum();
  }

  /** {@return total memory if every level used Standard128Ribbon} */
  public long allRibbonBytes() {
    return levels.stream().mapToLong(Level::ribbonBytes).sum();
  }

  /** {@return the expected false-positive probes over all levels} */
  public double totalExpectedFalsePositiveProbes() {
    return levels.stream().mapToDouble(Level::expectedFalsePositiveProbes).sum();
  }

  /** {@return the total filter probes} */
  public long totalProbes() {
    return levels.stream().mapToLong(Level::probes).sum();
  }

  /** A fixed-width table, one line per level and a totals line. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            "%5s %8s %-18s %14s %8s %14s %8s %10s %14s %12s %14s %14s%n",
            "level",
            "levelish",
            "type",
            "keys",
            "filters",
            "bytes",
            "bits/key",
            "fpr",
            "probes",
            "fp probes",
            "bloom bytes",
            "ribbon bytes"));
    for (Level l : levels) {
      sb.append(
          String.format(
              "%5d %8d %-18s %14d %8d %14d %8.3f %10.4g %14d %12.1f %14d %14d%n",
              l.level(),
              l.levelish(),
              rocksDbName(l.type()),
              l.keys(),
              l.filters(),
              l.bytes(),
              l.bitsPerKey(),
              l.fpRate(),
              l.probes(),
              l.expectedFalsePositiveProbes(),
              l.bloomBytes(),
              l.ribbonBytes()));
    }
    sb.append(
        String.format(
            "total: %d bytes (all-Bloom %d, all-Ribbon %d), %d probes, %.1f expected FP probes%n",
            totalBytes(),
            allBloomBytes(),
            allRibbonBytes(),
            totalProbes(),
            totalExpectedFalsePositiveProbes()));
    return sb.toString();
  }
}
