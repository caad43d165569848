package dev.sieve.report;

import dev.sieve.bench.SieveAdapters;

/**
 * Which row of a run a section means: the structure, the key count, and the lookup path it is timed
 * on. A row's name is {@code structure + path suffix} ({@code sieve-xor8-batch} is {@code
 * sieve-xor8} through its batch API), so the key and the name say the same thing; sections ask for
 * rows by key ({@link RowIndex}) rather than by building names.
 *
 * @param structure the structure's name without the path's suffix, e.g. {@code sieve-xor8}
 * @param n the number of keys
 * @param path the lookup path the row is timed on
 */
record RowKey(String structure, int n, Path path) {

  /** The lookup path of a row, and the suffix it adds to the structure's name. */
  enum Path {
    /** {@code mayContain(long)} of the default builder's filter, its key hash included. */
    SINGLE(""),
    /** The filter's batch API. */
    BATCH(SieveAdapters.BATCH_SUFFIX),
    /** {@code mayContainHash} with the key as its own hash. */
    PREHASHED(SieveAdapters.PREHASHED_SUFFIX),
    /** Single lookups through the filter's one-mixer hash for long keys. */
    FAST_HASH(SieveAdapters.FASTHASH_SUFFIX);

    final String suffix;

    Path(String suffix) {
      this.suffix = suffix;
    }
  }

  /** The key of {@code r}, read from its name and n. */
  static RowKey of(Row r) {
    for (Path p : new Path[] {Path.BATCH, Path.PREHASHED, Path.FAST_HASH}) {
      if (r.name.endsWith(p.suffix)) {
        return new RowKey(r.name.substring(0, r.name.length() - p.suffix.length()), r.n, p);
      }
    }
    return new RowKey(r.name, r.n, Path.SINGLE);
  }

  /** Whether the row is timed through the fast hash: single, or batch/pre-hashed over it. */
  boolean fastHash() {
    return path == Path.FAST_HASH || structure.endsWith(Path.FAST_HASH.suffix);
  }

  /** The row name this key stands for. */
  String name() {
    return structure + path.suffix;
  }
}
