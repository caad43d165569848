package dev.sieve.bench;

/**
 * Benchmark-only blocked Bloom filter with the two design choices the seed asks about as knobs: the
 * block size ({@code 64..512} bits, any power of two) and whether the block index reuses the hash
 * bits the probes are taken from. Not a Sieve filter: it exists to measure what those choices cost
 * (docs/notes.md, questions 2 and 3).
 *
 * <p>With {@code reuseProbeBits = false} it is FastLocalBloom's scheme generalized to {@code B}-bit
 * blocks: the block is {@code FastRange32(h1, numBlocks)} of the low 32 hash bits, probe {@code i}
 * takes the top {@code log2 B} bits of {@code h2 · 0x9e3779b9^i} from the high 32 bits. With {@code
 * reuseProbeBits = true} the block is chosen from {@code h2} as well — the same bits the first
 * probe reads — so keys sharing a block also share (the top bits of) their probe pattern.
 */
public final class BlockVariantBloom {
  private final long[] words;
  private final int numBlocks;
  private final int blockBits;
  private final int shift;
  private final int numProbes;
  private final boolean reuseProbeBits;

  /** An empty filter of {@code numKeys · bitsPerKey} bits rounded up to whole blocks. */
  public BlockVariantBloom(
      long numKeys, double bitsPerKey, int blockBits, int numProbes, boolean reuseProbeBits) {
    if (blockBits < 64 || blockBits > 512 || Integer.bitCount(blockBits) != 1) {
      throw new IllegalArgumentException(
          "block bits must be 64, 128, 256 or 512, got " + blockBits);
    }
    if (numProbes < 1 || numProbes > 30) {
      throw new IllegalArgumentException("probes must be in [1, 30], got " + numProbes);
    }
    long blocks = Math.max(1, (long) Math.ceil(numKeys * bitsPerKey / blockBits));
    if (blocks * (blockBits / 64) > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("filter too large: " + blocks + " blocks");
    }
    this.numBlocks = (int) blocks;
    this.blockBits = blockBits;
    this.shift = 32 - Integer.numberOfTrailingZeros(blockBits);
    this.numProbes = numProbes;
    this.reuseProbeBits = reuseProbeBits;
    this.words = new long[numBlocks * (blockBits / 64)];
  }

  private int blockOf(long hash) {
    long h = reuseProbeBits ? hash >>> 32 : hash & 0xffffffffL;
    return (int) ((h * numBlocks) >>> 32);
  }

  /** The block {@code hash} maps to. */
  public int block(long hash) {
    return blockOf(hash);
  }

  public void addHash(long hash) {
    int base = blockOf(hash) * (blockBits / 64);
    int h = (int) (hash >>> 32);
    for (int i = 0; i < numProbes; i++) {
      int bit = h >>> shift;
      words[base + (bit >>> 6)] |= 1L << bit;
      h *= 0x9e3779b9;
    }
  }

  public boolean mayContainHash(long hash) {
    int base = blockOf(hash) * (blockBits / 64);
    int h = (int) (hash >>> 32);
    for (int i = 0; i < numProbes; i++) {
      int bit = h >>> shift;
      if ((words[base + (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
      h *= 0x9e3779b9;
    }
    return true;
  }

  /**
   * The same test without an early exit: all {@code k} probe bits are read from the (one) cache
   * line and AND-ed, so the answer costs no branch that depends on the data. An absent key's early
   * exit lands on a random probe, which a branch predictor cannot learn; this form trades up to
   * {@code k - 1} extra loads from an already-loaded line for no mispredictions.
   */
  public boolean mayContainHashBranchFree(long hash) {
    int base = blockOf(hash) * (blockBits / 64);
    int h = (int) (hash >>> 32);
    long all = 1;
    for (int i = 0; i < numProbes; i++) {
      int bit = h >>> shift;
      all &= words[base + (bit >>> 6)] >>> bit;
      h *= 0x9e3779b9;
    }
    return (all & 1) != 0;
  }

  public int numBlocks() {
    return numBlocks;
  }

  public long sizeInBits() {
    return (long) words.length * 64;
  }

  /** The fraction of bits set. */
  public double fractionOfBitsSet() {
    long set = 0;
    for (long w : words) {
      set += Long.bitCount(w);
    }
    return (double) set / sizeInBits();
  }
}
