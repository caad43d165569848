package dev.sieve.bench;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.hash.KeyHash;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The single-key probe forms of the blocked Bloom filter (RocksDB's FastLocalBloom), measured
 * against each other: the experiment behind the form {@link BlockedBloomFilter} ships (branch-free
 * up to 4 MiB of data, the early exit above; docs/journal.md). Each row queries the words of a real
 * Sieve filter, copied from its RocksDB block, with Sieve's key hash, so only the probe loop
 * differs from the {@code sieve-blocked-bloom} row:
 *
 * <ul>
 *   <li>{@code early}: exits at the first clear bit (the library's form above 4 MiB);
 *   <li>{@code hybrid}: branches on the first probe only (most absent keys stop there) and ANDs the
 *       rest;
 *   <li>{@code branchfree}: ANDs every probe, no data-dependent branch (the library's form in
 *       cache);
 *   <li>{@code loop}: the plain early-exit loop, not unrolled.
 * </ul>
 *
 * A probe's position is FastLocalBloom's: block {@code FastRange32(h1, numBlocks)}, bit {@code h2 ·
 * 0x9e3779b9^i >>> 23} of the 512-bit block. The experiment lives here, not in sieve-core, so that
 * the library keeps one probe form; {@code sieve-bench/scripts/probe-forms.sh} runs these rows
 * beside the library's.
 */
public final class ProbeForms {
  private ProbeForms() {}

  /** The forms, by the suffix of their row name {@code blocked-bloom-form-<form>}. */
  public enum Form {
    EARLY,
    HYBRID,
    BRANCHFREE,
    LOOP
  }

  private static final int GOLDEN32 = 0x9e3779b9;

  /** One diagnostic row per form. */
  public static List<StructureKind> kinds() {
    List<StructureKind> kinds = new ArrayList<>();
    for (Form form : Form.values()) {
      String name = form.name().toLowerCase(java.util.Locale.ROOT);
      kinds.add(
          new StructureKind(
              "blocked-bloom-form-" + name,
              Family.SIEVE,
              "experiment: Sieve BlockedBloomFilter's words queried by the '"
                  + name
                  + "' probe form (sieve-bench ProbeForms)",
              true,
              (keys, b) -> new Rows(BlockedBloomFilter.builder().bitsPerKey(b).build(keys), form)));
    }
    return kinds;
  }

  /** A filter's words and probe count, queried by one form. */
  static final class Rows implements Membership {
    private final long[] words;
    private final int numBlocks;
    private final int numProbes;
    private final Form form;
    private final BlockedBloomFilter filter;

    Rows(BlockedBloomFilter filter, Form form) {
      byte[] block = filter.toRocksDbFilterBlock();
      int dataBytes =
          filter.numBlocks() * BlockedBloomFilter.BLOCK_BYTES; // the block less its trailer
      this.words = new long[dataBytes / Long.BYTES];
      ByteBuffer.wrap(block, 0, dataBytes).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(words);
      this.numBlocks = words.length / 8;
      this.numProbes = filter.numProbes();
      this.form = form;
      this.filter = filter;
    }

    @Override
    public boolean mayContain(long key) {
      long hash = KeyHash.hash64(key);
      int base = (int) (((hash & 0xFFFFFFFFL) * numBlocks) >>> 32) * 8;
      int h = (int) (hash >>> 32);
      return switch (form) {
        case EARLY -> numProbes == 6 ? early6(words, base, h) : loop(words, base, h, numProbes);
        case HYBRID -> hybrid(words, base, h, numProbes);
        case BRANCHFREE -> (branchFree(words, base, h, numProbes) & 1) != 0;
        case LOOP -> loop(words, base, h, numProbes);
      };
    }

    @Override
    public long sizeInBits() {
      return filter.sizeInBits();
    }

    @Override
    public double modelFpRate() {
      return filter.modelledFpRate();
    }
  }

  static boolean loop(long[] w, int base, int h, int numProbes) {
    for (int i = 0; i < numProbes; i++) {
      int p = h >>> 23;
      if ((w[base + (p >>> 6)] & (1L << p)) == 0) {
        return false;
      }
      h *= GOLDEN32;
    }
    return true;
  }

  /** Six probes unrolled, each exiting at a clear bit. */
  static boolean early6(long[] w, int base, int h) {
    int h1 = h * GOLDEN32;
    int h2 = h1 * GOLDEN32;
    int h3 = h2 * GOLDEN32;
    int h4 = h3 * GOLDEN32;
    int h5 = h4 * GOLDEN32;
    return bit(w, base, h)
        && bit(w, base, h1)
        && bit(w, base, h2)
        && bit(w, base, h3)
        && bit(w, base, h4)
        && bit(w, base, h5);
  }

  private static boolean bit(long[] w, int base, int h) {
    int p = h >>> 23;
    return (w[base + (p >>> 6)] & (1L << p)) != 0;
  }

  static boolean hybrid(long[] w, int base, int h, int numProbes) {
    if (!bit(w, base, h)) {
      return false;
    }
    return (branchFree(w, base, h * GOLDEN32, numProbes - 1) & 1) != 0;
  }

  /** Bit 0 is set iff all {@code numProbes} probe bits from {@code h} on are set. */
  static long branchFree(long[] w, int base, int h, int numProbes) {
    long all = 1;
    for (int i = 0; i < numProbes; i++) {
      int p = h >>> 23;
      all &= w[base + (p >>> 6)] >>> p;
      h *= GOLDEN32;
    }
    return all;
  }
}
