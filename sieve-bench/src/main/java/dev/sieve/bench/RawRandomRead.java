package dev.sieve.bench;

import dev.sieve.bloom.FastLocalBloomSizing;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The physical limit: a lookup that is nothing but one random 64-bit read from a {@code long[]}.
 * The word index is {@code FastRange32} of the key's upper 32 bits (the keys are random, so no hash
 * is needed); the word is compared with the key so the read cannot be skipped. One array has the
 * blocked Bloom filter's footprint for the same keys and bits/key (RocksDB's sizing), the other ten
 * times that, so the report can price every query as a multiple of a raw memory access of the same
 * size on this machine.
 */
public final class RawRandomRead implements Membership {
  private final long[] words;

  private RawRandomRead(long[] words) {
    this.words = words;
  }

  /** An array of {@code numWords} random words (fixed seed). */
  public static RawRandomRead ofWords(long numWords) {
    if (numWords < 1 || numWords > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "raw-read array must have 1.." + (Integer.MAX_VALUE - 8) + " words, got " + numWords);
    }
    long[] words = new long[(int) numWords];
    SplittableRandom random = new SplittableRandom(0x7a3d_0001L);
    for (int i = 0; i < words.length; i++) {
      words[i] = random.nextLong();
    }
    return new RawRandomRead(words);
  }

  /** The blocked Bloom filter's data size in 64-bit words for {@code n} keys at {@code b}. */
  public static long blockedBloomWords(long numKeys, double bitsPerKey) {
    long bytes =
        FastLocalBloomSizing.rocksDbDataBytes(
            numKeys, FastLocalBloomSizing.rocksDbMillibitsPerKey(bitsPerKey));
    return Math.max(1, bytes / Long.BYTES);
  }

  /** Both raw-read kinds. */
  public static List<StructureKind> kinds() {
    return List.of(
        new StructureKind(
            "raw-read-1x",
            Family.LIMIT,
            "one random 64-bit read from a long[] the blocked Bloom filter's size",
            true,
            (keys, b) -> ofWords(blockedBloomWords(keys.length, b))),
        new StructureKind(
            "raw-read-10x",
            Family.LIMIT,
            "one random 64-bit read from a long[] 10x the blocked Bloom filter's size",
            true,
            (keys, b) -> ofWords(10 * blockedBloomWords(keys.length, b))));
  }

  @Override
  public boolean mayContain(long key) {
    long[] w = words;
    int index = (int) (((key >>> 32) * w.length) >>> 32);
    return w[index] == key;
  }

  @Override
  public long sizeInBits() {
    return (long) words.length * Long.SIZE;
  }

  /** Not a filter: no model. */
  @Override
  public double modelFpRate() {
    return Double.NaN;
  }
}
