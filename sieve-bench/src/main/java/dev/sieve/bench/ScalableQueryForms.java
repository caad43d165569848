package dev.sieve.bench;

import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.format.SieveFormat;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Benchmark-only query forms of a {@link ScalableBloomFilter}'s stages, the two that were measured
 * against the library's stage loop and not shipped (they were sieve-core's {@code
 * sieve.scalable.queryForm} switch). All three give the same answers:
 *
 * <ul>
 *   <li>{@code loop}: each stage's own lookup in turn, newest first — what {@link
 *       ScalableBloomFilter#mayContainHash} does;
 *   <li>{@code twopass} ({@link #twoPassMayContain}): first loads, for every stage, the word of the
 *       key's first probe (independent loads, so the misses of all stages are in flight at once),
 *       then tests the other probes of the stages whose first probe was set;
 *   <li>{@code branchfree} ({@link #branchFreeMayContain}): ANDs every probe of every stage.
 * </ul>
 *
 * <p>{@code GrowthQueryBenchmark}'s {@code queryForm} runs them. The forms work on heap copies of
 * the stages' FastLocalBloom words, read from the filter's serialized form ({@code
 * ScalableBloomForm}'s layout), taken once: later adds are not seen.
 */
public final class ScalableQueryForms {
  /** The form names, as {@code GrowthQueryBenchmark}'s {@code queryForm} takes them. */
  public static final String LOOP = "loop";

  public static final String TWO_PASS = "twopass";
  public static final String BRANCH_FREE = "branchfree";

  private static final int GOLDEN32 = 0x9e3779b9;
  private static final int HEADER_BYTES = 64;
  private static final int STAGE_ENTRY_BYTES = 32;
  private static final int TRAILER_BYTES = 5;
  private static final int BLOCK_BYTES = 64;

  private final long[][] words;
  private final long[] blocks;
  private final int[] probes;

  private ScalableQueryForms(long[][] words, long[] blocks, int[] probes) {
    this.words = words;
    this.blocks = blocks;
    this.probes = probes;
  }

  /** The name checked: {@code loop}, {@code twopass} or {@code branchfree}. */
  public static String form(String name) {
    if (!name.equals(LOOP) && !name.equals(TWO_PASS) && !name.equals(BRANCH_FREE)) {
      throw new IllegalArgumentException(
          "query form must be twopass, branchfree or loop, got " + name);
    }
    return name;
  }

  /** Heap copies of {@code filter}'s stages as they are now. */
  public static ScalableQueryForms of(ScalableBloomFilter filter) {
    // the container's payload, past its header: the filter's own form, stage data 64-byte aligned
    ByteBuffer in =
        ByteBuffer.wrap(SieveFormat.toBytes(filter))
            .position(SieveFormat.HEADER_BYTES)
            .slice()
            .order(ByteOrder.LITTLE_ENDIAN);
    int m = in.getInt(4);
    long[][] words = new long[m][];
    long[] blocks = new long[m];
    int[] probes = new int[m];
    long at = align64(HEADER_BYTES + (long) STAGE_ENTRY_BYTES * m);
    for (int i = 0; i < m; i++) {
      long blockLength = in.getLong(HEADER_BYTES + STAGE_ENTRY_BYTES * i + 16);
      int dataBytes = Math.toIntExact(blockLength - TRAILER_BYTES);
      words[i] = new long[dataBytes / Long.BYTES];
      in.slice(Math.toIntExact(at), dataBytes)
          .order(ByteOrder.LITTLE_ENDIAN)
          .asLongBuffer()
          .get(words[i]);
      blocks[i] = dataBytes / BLOCK_BYTES;
      probes[i] = filter.stageNumProbes(i);
      if (blocks[i] * BLOCK_BYTES * 8 != filter.stageSizeInBits(i)) {
        throw new IllegalStateException("stage " + i + ": not the layout this class reads");
      }
      at = align64(at + blockLength);
    }
    return new ScalableQueryForms(words, blocks, probes);
  }

  private static long align64(long n) {
    return (n + 63) & ~63L;
  }

  /** The number of stages. */
  public int numStages() {
    return words.length;
  }

  /** The {@code twopass} form. */
  public boolean twoPassMayContain(long hash64) {
    long[][] words = this.words;
    long low = hash64 & 0xFFFFFFFFL;
    int h = (int) (hash64 >>> 32);
    int p = h >>> 23;
    int firstWord = p >>> 6;
    long[] blocks = this.blocks;
    int m = words.length;
    long first = 0;
    for (int i = m - 1; i >= 0; i--) {
      int base = (int) ((low * blocks[i]) >>> 32) << 3;
      first |= ((words[i][base + firstWord] >>> p) & 1) << i;
    }
    if (first == 0) {
      return false;
    }
    int next = h * GOLDEN32;
    int[] probes = this.probes;
    for (int i = m - 1; i >= 0; i--) {
      if ((first >>> i & 1) != 0) {
        int base = (int) ((low * blocks[i]) >>> 32) << 3;
        if ((ProbeForms.branchFree(words[i], base, next, probes[i] - 1) & 1) != 0) {
          return true;
        }
      }
    }
    return false;
  }

  /** The {@code branchfree} form. */
  public boolean branchFreeMayContain(long hash64) {
    long[][] words = this.words;
    long[] blocks = this.blocks;
    int[] probes = this.probes;
    long low = hash64 & 0xFFFFFFFFL;
    int h = (int) (hash64 >>> 32);
    long any = 0;
    for (int i = words.length - 1; i >= 0; i--) {
      int base = (int) ((low * blocks[i]) >>> 32) << 3;
      any |= ProbeForms.branchFree(words[i], base, h, probes[i]);
    }
    return (any & 1) != 0;
  }
}
