package dev.sieve.ribbon;

import dev.sieve.KeyScheme;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Bumped Ribbon's query (heap, and wrapped in direct and heap buffers) against a straightforward
 * reading of its payload: per layer, the 2-bit threshold of the start's block, then the interleaved
 * query of {@link RibbonProbeReferenceTest#referenceMatches}. Random payloads (random thresholds,
 * layers, shapes, metadata and solution data) reach every corner without a solve; solved filters
 * must keep every key. Long enough for C2 to compile every form and be checked again.
 */
class BumpedRibbonProbeReferenceTest {

  private static long splitMix(long seed, int layer) {
    long z = seed + (layer + 1) * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The reference reading of a payload ({@link BumpedRibbonFilter#toByteArray()}'s layout). */
  static boolean reference(byte[] payload, long hash64) {
    ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
    int[] thresholds = {0, b.get(1) & 0xFF, b.get(2) & 0xFF, 128};
    int numLayers = b.get(3) & 0xFF;
    long seed = b.getLong(8);
    int off = 24 + 8 * numLayers;
    for (int i = 0; i < numLayers; i++) {
      int nb = b.getInt(24 + 8 * i);
      int ns = b.getInt(28 + 8 * i);
      int metaWords = (nb + 31) / 32;
      long x = (hash64 ^ splitMix(seed, i)) * 0x9E3779B97F4A7C15L;
      long h = (x ^ (x >>> 32)) * 0xD6E8FEB86659FD93L;
      int start = RibbonProbeReferenceTest.referenceStart(h, nb * 128 - 127);
      int block = start / 128;
      long metaWord = b.getLong(off + 8 * (block / 32));
      int t = (int) (metaWord >>> (2 * (block % 32))) & 3;
      if (start % 128 >= thresholds[t]) {
        ByteBuffer data =
            ByteBuffer.wrap(payload, off + 8 * metaWords, 16 * ns)
                .slice()
                .order(ByteOrder.LITTLE_ENDIAN);
        return RibbonProbeReferenceTest.referenceMatches(
            data, ns, nb, start, h * 0xc28f82822b650bedL);
      }
      off += 8 * metaWords + 16 * ns;
    }
    return false;
  }

  /** A well-formed payload of random layers, thresholds, metadata and data. */
  static byte[] randomPayload(SplittableRandom rnd, int maxBlocks) {
    int numLayers = 1 + rnd.nextInt(4);
    int[] nb = new int[numLayers];
    int[] ns = new int[numLayers];
    long len = 24 + 8L * numLayers;
    for (int i = 0; i < numLayers; i++) {
      nb[i] = 2 + rnd.nextInt(maxBlocks - 1);
      ns[i] = RibbonProbeReferenceTest.randomSegments(rnd, nb[i]);
      ns[i] = Math.max(nb[i], ns[i]); // the payload needs at least one column per block
      len += 8L * ((nb[i] + 31) / 32) + 16L * ns[i];
    }
    ByteBuffer b = ByteBuffer.allocate((int) len).order(ByteOrder.LITTLE_ENDIAN);
    int t1 = 1 + rnd.nextInt(125);
    int t2 = t1 + 1 + rnd.nextInt(127 - t1);
    b.put((byte) 1).put((byte) t1).put((byte) t2).put((byte) numLayers).putInt(0);
    b.putLong(rnd.nextLong()).putLong(1 + rnd.nextInt(1 << 20));
    for (int i = 0; i < numLayers; i++) {
      b.putInt(nb[i]).putInt(ns[i]);
    }
    for (int i = 0; i < numLayers; i++) {
      for (int w = 0; w < (nb[i] + 31) / 32; w++) {
        int used = Math.min(32, nb[i] - 32 * w);
        long mask = used == 32 ? -1L : ~(-1L << (2 * used));
        b.putLong(i == numLayers - 1 ? 0 : rnd.nextLong() & mask);
      }
      for (int w = 0; w < 2 * ns[i]; w++) {
        b.putLong(rnd.nextLong());
      }
    }
    return b.array();
  }

  static BumpedRibbonFilter[] forms(byte[] payload) {
    ByteBuffer direct = ByteBuffer.allocateDirect(payload.length + 5);
    direct.position(5);
    direct.put(payload).position(5);
    return new BumpedRibbonFilter[] {
      BumpedRibbonFilter.fromByteArray(payload, KeyScheme.XXPH3),
      BumpedRibbonFilter.wrap(direct, KeyScheme.XXPH3),
      BumpedRibbonFilter.wrap(ByteBuffer.wrap(payload), KeyScheme.XXPH3)
    };
  }

  private static void checkAll(byte[] payload, BumpedRibbonFilter[] forms, long[] queries) {
    for (long q : queries) {
      boolean want = reference(payload, q);
      for (int f = 0; f < forms.length; f++) {
        if (forms[f].mayContainHash(q) != want) {
          throw new AssertionError(
              "form " + f + " answers " + !want + " for hash " + q + " in " + forms[f]);
        }
      }
    }
  }

  @Test
  void randomPayloadsAnswerAsTheReferenceBeforeAndAfterCompilation() {
    SplittableRandom rnd = new SplittableRandom(30);
    for (int round = 0; round < 100; round++) {
      byte[] payload = randomPayload(rnd, round % 10 == 0 ? 4 : 300);
      checkAll(payload, forms(payload), rnd.longs(20_000).toArray());
    }
  }

  @Test
  void solvedFiltersMatchTheReferenceAndKeepEveryKey() {
    SplittableRandom rnd = new SplittableRandom(31);
    double[] bits = {1, 3.5, 7, 12.25, 32};
    for (int round = 0; round < 15; round++) {
      int n = round < 5 ? 1 + rnd.nextInt(300) : 1000 + rnd.nextInt(60_000);
      long[] keys = rnd.longs(n).toArray();
      BumpedRibbonFilter f =
          BumpedRibbonFilter.builder()
              .resultBits(bits[round % bits.length])
              .seed(rnd.nextLong())
              .buildFromHashes(keys);
      byte[] payload = f.toByteArray();
      BumpedRibbonFilter[] forms = forms(payload);
      for (BumpedRibbonFilter form : forms) {
        for (long k : keys) {
          if (!form.mayContainHash(k)) {
            throw new AssertionError("false negative for " + k + " in " + form);
          }
        }
      }
      checkAll(payload, forms, keys);
      checkAll(payload, forms, rnd.longs(50_000).toArray());
    }
  }

  @Property(tries = 100)
  void anyPayloadAnswersAsTheReference(
      @ForAll @IntRange(min = 3, max = 1000) int maxBlocks, @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    byte[] payload = randomPayload(rnd, maxBlocks);
    checkAll(payload, forms(payload), rnd.longs(2000).toArray());
  }
}
