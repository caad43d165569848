package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import dev.sieve.SieveFormatException;
import dev.sieve.format.SieveFormat;
import dev.sieve.hash.KeyHash;
import dev.sieve.math.GrowthMath;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Scale;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link ScalableBloomFilter}: growth, the FPR bound, no false negatives, its serialized form. */
class ScalableBloomFilterTest {

  /**
   * The FPR bound at every size, statistically. From a guess of 10^3 keys, 10^3..10^6 random keys
   * are added one by one (10 stages); at each checkpoint 2·10^6 random absent hashes are queried.
   * The count of false positives {@code X} is binomial with {@code p ≤ f} if the filter keeps its
   * bound, so {@code X ≤ f·Q + 5·sqrt(f·Q)} holds with probability above 1 − 3·10^-7 per checkpoint
   * (one-sided 5σ, normal approximation at {@code f·Q ≥ 2·10^3}). A chain whose stages were each
   * sized for {@code f}, not {@code f·(1−r)·r^i}, would measure about {@code m·f} and fail at the
   * second checkpoint. The measured rate must also sit on the chain's model within 5σ plus 5%, so a
   * filter far better than its model (stages much larger than computed) fails too.
   */
  @ParameterizedTest
  @ValueSource(doubles = {0.01, 0.001})
  void fprStaysBelowTheRequestedRateAtEverySize(double f) {
    ScalableBloomFilter filter =
        ScalableBloomFilter.builder().expectedKeys(1_000).fpRate(f).create();
    SplittableRandom keys = new SplittableRandom(11);
    SplittableRandom absent = new SplittableRandom(12);
    int queries = 2_000_000;
    long added = 0;
    for (long checkpoint : new long[] {1_000, 10_000, 100_000, 1_000_000}) {
      while (added < checkpoint) {
        filter.addHash(keys.nextLong());
        added++;
      }
      long fp = 0;
      for (int q = 0; q < queries; q++) {
        if (filter.mayContainHash(absent.nextLong())) {
          fp++;
        }
      }
      double bound = f * queries + 5 * Math.sqrt(f * queries);
      assertTrue(
          fp <= bound,
          "at " + checkpoint + " keys, " + fp + " false positives in " + queries + " > " + bound);
      double model = filter.modelledFpRate() * queries;
      assertTrue(model < f * queries, "model above the bound: " + model);
      if (checkpoint >= 100_000) {
        assertTrue(
            Math.abs(fp - model) <= 5 * Math.sqrt(model) + 0.08 * model,
            "at " + checkpoint + " keys: " + fp + " false positives, the model says " + model);
      }
    }
    // 10^6 keys from 10^3 at s = 2: stages of 1000·2^i; stages 0..8 hold 511,000, stage 9 the rest
    assertEquals(10, filter.numStages());
    assertEquals(512_000, filter.stageCapacity(9));
  }

  @Test
  void stagesFollowTheGrowthAndTighteningSequences() {
    ScalableBloomFilter filter =
        ScalableBloomFilter.builder()
            .expectedKeys(100)
            .fpRate(0.02)
            .growthFactor(3)
            .tighteningRatio(0.8)
            .create();
    long[] capacities = {100, 300, 900, 2700};
    SplittableRandom random = new SplittableRandom(5);
    while (filter.numStages() < 4) {
      filter.addHash(random.nextLong());
    }
    assertEquals(4, filter.numStages());
    for (int i = 0; i < 4; i++) {
      assertEquals(capacities[i], filter.stageCapacity(i));
      double rate = GrowthMath.scalableStageFpRate(0.02, 0.8, i);
      assertEquals(0.02 * 0.2 * Math.pow(0.8, i), rate, 1e-15);
      int millibits = ScalableBloomFilter.stageMillibitsPerKey(rate);
      assertTrue(
          GrowthMath.blockedBloomFpRateWithProbeCollisions(
                  millibits / 1000.0, FastLocalBloomSizing.chooseNumProbes(millibits), 512)
              <= rate);
      assertEquals(
          FastLocalBloomSizing.rocksDbDataBytes(capacities[i], millibits) * 8,
          filter.stageSizeInBits(i));
      assertEquals(FastLocalBloomSizing.chooseNumProbes(millibits), filter.stageNumProbes(i));
    }
    // a stage opens only when the one before has taken its capacity (an add of a key whose bits
    // were all set already takes none)
    assertEquals(100, filter.stageKeys(0));
    assertEquals(300, filter.stageKeys(1));
    assertEquals(900, filter.stageKeys(2));
    assertEquals(1, filter.stageKeys(3));
    assertEquals(
        filter.stageKeys(0) + filter.stageKeys(1) + filter.stageKeys(2) + filter.stageKeys(3),
        filter.numKeys());
    assertTrue(GrowthMath.scalableChainFpRateBound(0.02, 0.8, 64) < 0.02);
  }

  /**
   * A grown heap filter finds every key and few others, its lookup being the stage loop (the two
   * other query forms, now sieve-bench's {@code ScalableQueryForms}, are checked against it there).
   */
  @Test
  void aGrownFilterAnswersByTheStageLoop() {
    ScalableBloomFilter filter = ScalableBloomFilter.builder().expectedKeys(64).create();
    SplittableRandom random = new SplittableRandom(21);
    long[] added = random.longs(30_000).toArray();
    for (long h : added) {
      filter.addHash(h);
    }
    assertTrue(filter.numStages() >= 9);
    ScalableBloomChain chain = filter.chain();
    int maybe = 0;
    for (int i = 0; i < 300_000; i++) {
      long h = i < added.length ? added[i] : random.nextLong();
      boolean answer = filter.mayContainHash(h);
      assertEquals(answer, ScalableBloomChain.loopMayContain(chain, h), "hash " + h);
      boolean anyStage = false;
      for (ScalableBloomStage stage : chain.stages) {
        anyStage |= stage.filter.mayContainHash(h);
      }
      assertEquals(answer, anyStage, "hash " + h);
      maybe += answer ? 1 : 0;
    }
    assertTrue(maybe >= added.length && maybe < added.length + 3_000, "maybe: " + maybe);
  }

  @Test
  void aDuplicateInTheNewestStageIsNotCountedButOneFromAnOlderStageIs() {
    ScalableBloomFilter filter = ScalableBloomFilter.builder().expectedKeys(10).create();
    assertTrue(filter.add(1L));
    assertFalse(filter.add(1L), "the newest stage had all its bits: reported present");
    assertEquals(1, filter.numKeys());
    long k = 100;
    while (filter.numStages() == 1) {
      filter.add(k++);
    }
    // key 1 lives in stage 0; added again, it goes into the new stage and counts again
    long before = filter.numKeys();
    assertTrue(filter.add(1L));
    assertEquals(before + 1, filter.numKeys());
  }

  /** No false negatives for any key set, guess, growth and tightening; also after a round trip. */
  // the seed that once generated a run-out-of-stages case (guess 1, slow growth, steep tightening)
  @Property(tries = 60, seed = "-3425788226328033874")
  void everyAddedKeyIsPresent(
      @ForAll @Size(max = 3000) List<Long> keys,
      @ForAll @LongRange(min = 1, max = 64) long expectedKeys,
      @ForAll @DoubleRange(min = 1.25, max = 16) double growth,
      @ForAll @DoubleRange(min = 0.5, max = 0.995) @Scale(3) double tightening,
      @ForAll @DoubleRange(min = 0.0001, max = 0.5) @Scale(5) double f) {
    ScalableBloomFilter filter =
        ScalableBloomFilter.builder()
            .expectedKeys(expectedKeys)
            .fpRate(f)
            .growthFactor(growth)
            .tighteningRatio(tightening)
            .create();
    // a small guess with slow growth and steep tightening can run out of stages (each stage's
    // rate is tighter than the last, and past 100 bits per key no stage can be built): add then
    // throws the documented "full" error, and every key added before it must still be present
    int added = 0;
    for (long key : keys) {
      try {
        filter.add(key);
        filter.add(key); // duplicates too
      } catch (IllegalStateException full) {
        assertTrue(full.getMessage().startsWith("the filter is full"), full.getMessage());
        break;
      }
      added++;
    }
    keys = keys.subList(0, added);
    byte[] container = SieveFormat.toBytes(filter);
    ScalableBloomFilter read = SieveFormat.read(container, ScalableBloomFilter.class);
    ScalableBloomFilter wrapped =
        SieveFormat.wrap(ByteBuffer.wrap(container), ScalableBloomFilter.class);
    for (long key : keys) {
      assertTrue(filter.mayContain(key), "false negative for " + key);
      assertTrue(read.mayContain(key), "false negative after reading");
      assertTrue(wrapped.mayContain(key), "false negative in the wrapped form");
    }
    assertEquals(filter.numKeys(), read.numKeys());
    // each add of a key counts at most once, but the repeat right after it counts again when
    // the first took the last room of a stage (documented: duplicates count twice unless add
    // reports them present)
    assertTrue(filter.numKeys() <= 2L * keys.size() + 1);
    assertTrue(filter.modelledFpRate() < f);
  }

  @Test
  void aFilterReadFromBytesKeepsGrowingAndAWrappedOneIsReadOnly() {
    ScalableBloomFilter filter = ScalableBloomFilter.builder().expectedKeys(50).create();
    for (long k = 0; k < 200; k++) {
      filter.add(k);
    }
    byte[] bytes = filter.toByteArray();
    // the bare form carries no key scheme: read back, the filter is given the one it was built with
    ScalableBloomFilter read =
        ScalableBloomFilter.fromByteArray(bytes, KeyScheme.XXPH3).withKeyScheme(filter.keyScheme());
    ScalableBloomFilter wrapped =
        ScalableBloomFilter.wrap(ByteBuffer.wrap(bytes), KeyScheme.XXPH3)
            .withKeyScheme(filter.keyScheme());
    assertTrue(wrapped.isWrapped());
    assertThrows(UnsupportedOperationException.class, () -> wrapped.add(7L));
    for (long k = 200; k < 5_000; k++) {
      read.add(k);
    }
    assertTrue(read.numStages() > filter.numStages());
    for (long k = 0; k < 5_000; k++) {
      assertTrue(read.mayContain(k));
    }
    ScalableBloomFilter copy = wrapped.copy();
    assertFalse(copy.isWrapped());
    copy.add(123_456L);
    assertTrue(copy.mayContain(123_456L));
  }

  @Test
  void aStageThatCannotMeetItsRateIsRefusedAndTheKeysStay() {
    ScalableBloomFilter filter =
        ScalableBloomFilter.builder()
            .expectedKeys(1)
            .fpRate(0.1)
            .growthFactor(1.25)
            .tighteningRatio(0.05)
            .create();
    long added = 0;
    IllegalStateException full = null;
    try {
      while (added < 10_000) {
        filter.add(added);
        added++;
      }
    } catch (IllegalStateException e) {
      full = e;
    }
    assertTrue(full != null, "a rate of 0.1·0.95·0.05^i falls below what 100 bits/key reach");
    assertTrue(full.getMessage().contains("100.0 bits per key"), full.getMessage());
    for (long k = 0; k < added; k++) {
      assertTrue(filter.mayContain(k));
    }
  }

  @Test
  void builderRefusesImpossibleSettingsNamingTheValue() {
    var b = ScalableBloomFilter.builder();
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> b.expectedKeys(0))
            .getMessage()
            .contains("got 0"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> b.growthFactor(1.1))
            .getMessage()
            .contains("1.1"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> b.tighteningRatio(1.0))
            .getMessage()
            .contains("1.0"));
    assertThrows(IllegalArgumentException.class, () -> b.fpRate(0));
    assertThrows(IllegalArgumentException.class, () -> b.tighteningRatio(Double.NaN));
  }

  // ---------------------------------------------------------------- corrupt input

  private static byte[] sample() {
    // the bare form carries no key scheme and reads back as XXPH3, so it is built under XXPH3
    ScalableBloomFilter filter =
        ScalableBloomFilter.builder().expectedKeys(20).keyScheme(KeyScheme.XXPH3).create();
    for (long k = 0; k < 100; k++) {
      filter.add(k);
    }
    assertEquals(3, filter.numStages());
    return filter.toByteArray();
  }

  private static SieveFormatException refused(byte[] bytes) {
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class,
            () -> ScalableBloomFilter.fromByteArray(bytes, KeyScheme.XXPH3));
    SieveFormatException w =
        assertThrows(
            SieveFormatException.class,
            () -> ScalableBloomFilter.wrap(ByteBuffer.wrap(bytes), KeyScheme.XXPH3));
    assertEquals(e.offset(), w.offset());
    return e;
  }

  private static byte[] withLong(byte[] bytes, int at, long v) {
    byte[] out = bytes.clone();
    ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putLong(at, v);
    return out;
  }

  private static byte[] withInt(byte[] bytes, int at, int v) {
    byte[] out = bytes.clone();
    ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
    return out;
  }

  @Test
  void corruptHeaderFieldsAreRefusedAtTheirOffset() {
    byte[] ok = sample();
    assertEquals(3, ScalableBloomFilter.fromByteArray(ok, KeyScheme.XXPH3).numStages());
    assertEquals(0, refused(withInt(ok, 0, 3)).offset());
    assertEquals(4, refused(withInt(ok, 4, 0)).offset());
    assertEquals(4, refused(withInt(ok, 4, 65)).offset());
    assertEquals(4, refused(withInt(ok, 4, 64)).offset()); // the table would not fit
    assertEquals(8, refused(withLong(ok, 8, 0)).offset());
    assertEquals(16, refused(withLong(ok, 16, Double.doubleToLongBits(Double.NaN))).offset());
    assertEquals(16, refused(withLong(ok, 16, Double.doubleToLongBits(1.0))).offset());
    assertEquals(24, refused(withLong(ok, 24, Double.doubleToLongBits(1.0))).offset());
    assertEquals(32, refused(withLong(ok, 32, Double.doubleToLongBits(0.999))).offset());
    assertEquals(40, refused(withInt(ok, 40, 1)).offset());
  }

  @Test
  void corruptStageTablesAndBlocksAreRefused() {
    byte[] ok = sample();
    int stage1 = 64 + 32;
    // capacities follow from n0 and s; changing n0 changes them
    assertEquals(64, refused(withLong(ok, 8, 21)).offset());
    assertEquals(stage1, refused(withLong(ok, stage1, 41)).offset());
    assertEquals(stage1 + 8, refused(withLong(ok, stage1 + 8, 41)).offset()); // keys > capacity
    assertEquals(stage1 + 8, refused(withLong(ok, stage1 + 8, -1)).offset());
    assertEquals(stage1 + 16, refused(withLong(ok, stage1 + 16, 68)).offset());
    assertEquals(stage1 + 24, refused(withInt(ok, stage1 + 24, 1)).offset());
    // a block length that moves the blocks: the next trailer or the total is wrong
    refused(
        withLong(
            ok,
            stage1 + 16,
            ByteBuffer.wrap(ok).order(ByteOrder.LITTLE_ENDIAN).getLong(stage1 + 16) + 64));
    // the first block's trailer (block at 192: 64 header + 3·32 table, aligned)
    int firstBlock = 192;
    long len0 = ByteBuffer.wrap(ok).order(ByteOrder.LITTLE_ENDIAN).getLong(64 + 16);
    byte[] trailer = ok.clone();
    trailer[(int) (firstBlock + len0 - 5)] = 0x7F;
    assertEquals(firstBlock + len0 - 5, refused(trailer).offset());
    // non-zero padding after a block
    byte[] padding = ok.clone();
    padding[(int) (firstBlock + len0)] = 1;
    assertEquals(firstBlock + len0, refused(padding).offset());
    // every truncation, and a trailing byte
    for (int cut = 0; cut < ok.length; cut += 7) {
      refused(java.util.Arrays.copyOf(ok, cut));
    }
    refused(java.util.Arrays.copyOf(ok, ok.length + 1));
    // a flipped data bit could be a silent false negative: the container's checksum catches it
    byte[] container = SieveFormat.toBytes(ScalableBloomFilter.fromByteArray(ok, KeyScheme.XXPH3));
    container[64 + firstBlock + 3] ^= 1;
    assertThrows(SieveFormatException.class, () -> SieveFormat.read(container));
  }

  @Test
  void theContainerRecordsStagesAndKeys() {
    ScalableBloomFilter filter = ScalableBloomFilter.fromByteArray(sample(), KeyScheme.XXPH3);
    byte[] container = SieveFormat.toBytes(filter);
    ByteBuffer h = ByteBuffer.wrap(container).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(11, h.getShort(10));
    assertEquals(filter.numKeys(), h.getLong(16));
    assertEquals(3, h.getInt(32));
    assertEquals(filter.sizeInBits(), h.getLong(40));
    assertEquals(0, h.getLong(24) % 64, "stage blocks stay 64-byte aligned");
    long hash = KeyHash.hash64(5L);
    assertTrue(SieveFormat.read(container).mayContainHash(hash));
  }
}
