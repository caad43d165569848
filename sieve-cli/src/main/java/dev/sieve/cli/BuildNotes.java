package dev.sieve.cli;

import dev.sieve.registry.FilterType;

/**
 * The word {@code build} adds after its summary line where the summary's "modelled FPR" alone would
 * mislead: a size the rate did not choose, or a rate that is not a range query's.
 */
final class BuildNotes {
  private BuildNotes() {}

  /** What {@code --type} help says of {@code prefix-bloom-range}. */
  static final String PREFIX_BLOOM_RANGE_HELP =
      "prefix-bloom-range is a comparison baseline: its range queries answer maybe far more often"
          + " than its modelled FPR (tens of percent at 16 bits/key for ranges past a few values)";

  /** The note for a {@code type} built at {@code fpRate} (null: not given), or {@code null}. */
  static String note(FilterType type, Double fpRate) {
    if (type == FilterType.PREFIX_BLOOM_RANGE) {
      return "note: the modelled FPR is one prefix probe's, not a range query's; a range query"
          + " meets many prefixes and answers maybe far more often (tens of percent at 16"
          + " bits/key for ranges past a few values): prefix-bloom-range is a comparison"
          + " baseline, grafite the range filter to use";
    }
    if (type == FilterType.SPLIT_BLOCK_BLOOM && fpRate != null) {
      return "note: split-block-bloom sizes as Parquet's writers do, the bytes rounded up to a"
          + " power of two, so the modelled FPR above, not --fp-rate, is what the filter gives;"
          + " --setting BITS_PER_KEY sizes it exactly";
    }
    return null;
  }
}
