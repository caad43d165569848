package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The package-private parts of the scalable filter: its form, its chain and the query forms. */
class ScalableBloomFormTest {

  private static ScalableBloomFilter grown() {
    ScalableBloomFilter filter = ScalableBloomFilter.builder().expectedKeys(40).create();
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 1_000; i++) {
      filter.addHash(random.nextLong());
    }
    assertTrue(filter.numStages() >= 4);
    return filter;
  }

  @Test
  void lengthArrayAndChannelAgree() throws IOException {
    ScalableBloomFilter filter = grown();
    byte[] bytes = filter.toByteArray();
    assertEquals(bytes.length, filter.serializedLength());
    assertEquals(bytes.length, ScalableBloomForm.length(filter.chain().stages));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    filter.writeTo(Channels.newChannel(out));
    assertArrayEquals(bytes, out.toByteArray());
    assertEquals(0, bytes.length % 64);
    ByteBuffer le = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(ScalableBloomForm.PAYLOAD_VERSION, le.getInt(0));
    assertEquals(filter.numStages(), le.getInt(4));
  }

  @Test
  void readAndWrapWriteBackTheSameBytes() {
    byte[] bytes = grown().toByteArray();
    assertArrayEquals(
        bytes, ScalableBloomFilter.fromByteArray(bytes, KeyScheme.XXPH3).toByteArray());
    assertArrayEquals(
        bytes, ScalableBloomFilter.wrap(ByteBuffer.wrap(bytes), KeyScheme.XXPH3).toByteArray());
    assertArrayEquals(
        bytes, ScalableBloomForm.read(ByteBuffer.wrap(bytes), false).copy().toByteArray());
  }

  @Test
  void headerParametersOutOfTheirRangesAreRefusedWithOffsetAndBounds() {
    byte[] bytes = grown().toByteArray();
    for (int offset : new int[] {24, 32}) {
      for (double bad : new double[] {0.01, 1e9, Double.NaN}) {
        byte[] b = bytes.clone();
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putDouble(offset, bad);
        dev.sieve.SieveFormatException e =
            assertThrows(
                dev.sieve.SieveFormatException.class,
                () -> ScalableBloomFilter.fromByteArray(b, KeyScheme.XXPH3));
        String name = offset == 24 ? "growth factor " : "tightening ratio ";
        double min =
            offset == 24
                ? ScalableBloomFilter.MIN_GROWTH_FACTOR
                : ScalableBloomFilter.MIN_TIGHTENING_RATIO;
        double max =
            offset == 24
                ? ScalableBloomFilter.MAX_GROWTH_FACTOR
                : ScalableBloomFilter.MAX_TIGHTENING_RATIO;
        assertTrue(
            e.getMessage().contains(name + bad + " outside [" + min + ", " + max + "]"),
            e.getMessage());
        assertTrue(e.getMessage().contains(String.valueOf(offset)), e.getMessage());
      }
    }
  }

  @Test
  void theTableBoundIsTheHeaderAndTheLargestTable() {
    assertEquals(
        ScalableBloomForm.HEADER_BYTES
            + ScalableBloomForm.STAGE_ENTRY_BYTES * ScalableBloomFilter.MAX_STAGES,
        ScalableBloomForm.MAX_TABLE_BYTES);
    assertEquals(64 + 32 * 64, ScalableBloomForm.MAX_TABLE_BYTES);
  }

  @Test
  void aWrappedFilterQueriesByTheLoopAsTheHeapOne() {
    ScalableBloomFilter filter = grown();
    ScalableBloomFilter wrapped =
        ScalableBloomFilter.wrap(ByteBuffer.wrap(filter.toByteArray()), KeyScheme.XXPH3);
    assertTrue(wrapped.isWrapped());
    SplittableRandom random = new SplittableRandom(8);
    for (int i = 0; i < 20_000; i++) {
      long h = random.nextLong();
      assertEquals(filter.mayContainHash(h), wrapped.mayContainHash(h));
      assertEquals(filter.mayContainHash(h), ScalableBloomChain.loopMayContain(wrapped.chain(), h));
    }
  }

  @Test
  void aSnapshotFreezesCountsAndSharesBits() {
    ScalableBloomFilter filter = grown();
    ScalableBloomFilter snapshot = filter.snapshot();
    long keys = snapshot.numKeys();
    assertEquals(filter.numKeys(), keys);
    assertEquals(filter.modelledFpRate(), snapshot.modelledFpRate());
    assertEquals(filter.sizeInBits(), snapshot.sizeInBits());
    assertTrue(
        filter.stageKeys(filter.numStages() - 1) < filter.stageCapacity(filter.numStages() - 1));
    filter.addHash(12345L);
    assertEquals(keys, snapshot.numKeys());
    assertTrue(snapshot.mayContainHash(12345L), "the newest stage's bits are shared");
    assertThrows(UnsupportedOperationException.class, () -> snapshot.addHash(1L));
  }
}
