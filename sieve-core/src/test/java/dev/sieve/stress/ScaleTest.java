package dev.sieve.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.FastLocalBloomSizing;
import dev.sieve.format.SieveFormat;
import dev.sieve.hash.KeyHash;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scale: a blocked Bloom and a Ribbon filter over 2·10^8 keys, each over 2^31 bits, with no false
 * negatives on a sample that includes keys whose bits lie beyond bit 2^31, a false-positive rate
 * near the model, and the filter written to a Sieve container file, memory-mapped and queried in
 * place.
 *
 * <p>Tagged {@code scale}: left out of {@code mvn verify}; run it with {@code mvn -B test -pl
 * sieve-core -am -Pscale} (add {@code -Dtest=ScaleTest#blockedBloom*} for one part). Heap: the
 * blocked Bloom part needs about 2 GiB (1.6 GB of key hashes and the 300 MB filter; its copy for
 * the file is written from the filter's block, another 300 MB); the Ribbon part about 8 GiB (the
 * hashes, RocksDB's de-duplicated copy of them, and banding storage of 20 bytes per slot). The
 * profile gives the test JVM {@code -Xmx12g} ({@code -Dscale.heap=...} to change).
 */
@Tag("scale")
class ScaleTest {
  private static final int KEYS = 200_000_000;
  private static final int SAMPLE_STRIDE = 97;
  private static final long TWO_POW_31 = 1L << 31;

  @TempDir Path dir;

  private static long[] hashes() {
    long[] h = new long[KEYS];
    for (int i = 0; i < KEYS; i++) {
      h[i] = KeyHash.hash64((long) i);
    }
    return h;
  }

  /** Every {@code SAMPLE_STRIDE}-th key (about 2·10^6) must be present. */
  private static void assertSampleContained(Filter f, long[] hashes) {
    long misses = 0;
    for (int i = 0; i < KEYS; i += SAMPLE_STRIDE) {
      if (!f.mayContainHash(hashes[i])) {
        misses++;
      }
    }
    assertEquals(0, misses, "false negatives in the sample");
  }

  /**
   * The FPR over 10^6 absent keys is within a 5-sigma binomial bound of the filter's own model
   * (sigma = sqrt(p(1-p)/N)), with 10% slack for the model's own approximation.
   */
  private static void assertFprNearModel(Filter f) {
    int trials = 1_000_000;
    long hits = 0;
    for (int i = 0; i < trials; i++) {
      if (f.mayContain(-1L - i)) { // keys 0..KEYS-1 were added; negative keys were not
        hits++;
      }
    }
    double p = f.modelledFpRate();
    double bound = 1.1 * p + 5 * Math.sqrt(p * (1 - p) / trials);
    double measured = (double) hits / trials;
    System.out.printf(
        "  %s: measured FPR %.5f, model %.5f%n", f.getClass().getSimpleName(), measured, p);
    assertTrue(measured <= bound, "FPR " + measured + " over the bound " + bound);
  }

  private void roundTripThroughAMappedFile(Filter f, long[] hashes) throws IOException {
    Path file = dir.resolve("scale.sieve");
    SieveFormat.write(f, file);
    Filter mapped = SieveFormat.map(file);
    assertEquals(f.sizeInBits(), mapped.sizeInBits());
    assertSampleContained(mapped, hashes);
    Files.delete(file);
  }

  @Test
  void blockedBloomOverTwoHundredMillionKeys() throws IOException {
    long t0 = System.nanoTime();
    long[] hashes = hashes();
    BlockedBloomFilter f =
        BlockedBloomFilter.buildRocksDb(
            hashes, KEYS, FastLocalBloomSizing.rocksDbMillibitsPerKey(12.0));
    long t1 = System.nanoTime();
    assertTrue(f.sizeInBits() > TWO_POW_31, "only " + f.sizeInBits() + " bits");
    assertSampleContained(f, hashes);
    // keys whose block starts beyond bit 2^31 are part of the sample: count them
    long numBlocks = f.numBlocks();
    long beyond = 0;
    for (int i = 0; i < KEYS; i += SAMPLE_STRIDE) {
      long block = ((hashes[i] & 0xFFFFFFFFL) * numBlocks) >>> 32;
      if (block * 512 >= TWO_POW_31) {
        beyond++;
      }
    }
    assertTrue(beyond > 10_000, "only " + beyond + " sampled keys beyond bit 2^31");
    assertFprNearModel(f);
    roundTripThroughAMappedFile(f, hashes);
    System.out.printf(
        "blocked Bloom: %d keys, %d bits, build %.1f s, total %.1f s%n",
        KEYS, f.sizeInBits(), (t1 - t0) / 1e9, (System.nanoTime() - t0) / 1e9);
  }

  @Test
  void ribbonOverTwoHundredMillionKeys() throws IOException {
    long t0 = System.nanoTime();
    long[] hashes = hashes();
    // 20 Bloom-equivalent bits/key give a Ribbon of about 14 bits/key: 2.8·10^9 bits
    Standard128RibbonFilter f =
        Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(20.0).buildFromHashes(hashes);
    long t1 = System.nanoTime();
    assertTrue(f.sizeInBits() > TWO_POW_31, "only " + f.sizeInBits() + " bits");
    assertSampleContained(f, hashes);
    assertFprNearModel(f);
    roundTripThroughAMappedFile(f, hashes);
    System.out.printf(
        "Ribbon: %d keys, %d bits, build %.1f s, total %.1f s%n",
        KEYS, f.sizeInBits(), (t1 - t0) / 1e9, (System.nanoTime() - t0) / 1e9);
  }
}
