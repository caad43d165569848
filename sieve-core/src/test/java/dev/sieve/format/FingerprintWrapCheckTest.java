package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.SieveFormatException;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.xor.BinaryFuse16Filter;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor16Filter;
import dev.sieve.xor.Xor8Filter;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The wrapping readers of the fingerprint filters refuse exactly the inputs their copying readers
 * refuse, at the same offsets, and a wrapped Cuckoo filter is read-only while its copy is mutable.
 */
class FingerprintWrapCheckTest {
  private static final long[] KEYS = new SplittableRandom(3).longs(2000).toArray();

  private record Reader(
      String name, byte[] form, Function<byte[], Filter> copy, Function<ByteBuffer, Filter> wrap) {}

  /** The bare forms carry no key scheme and read back as XXPH3: the filters are built so. */
  private static List<Reader> readers() {
    CuckooFilter cuckoo = CuckooFilter.createWithFingerprintBits(KEYS.length, 12);
    for (long k : KEYS) {
      cuckoo.add(k);
    }
    return List.of(
        new Reader(
            "xor8",
            Forms.toBytes(Xor8Filter.builder().keyScheme(KeyScheme.XXPH3).build(KEYS)),
            b -> Forms.read(Xor8Filter.class, b),
            b -> Forms.wrap(Xor8Filter.class, b)),
        new Reader(
            "xor16",
            Forms.toBytes(Xor16Filter.builder().keyScheme(KeyScheme.XXPH3).build(KEYS)),
            b -> Forms.read(Xor16Filter.class, b),
            b -> Forms.wrap(Xor16Filter.class, b)),
        new Reader(
            "fuse8",
            Forms.toBytes(BinaryFuse8Filter.builder().keyScheme(KeyScheme.XXPH3).build(KEYS)),
            b -> Forms.read(BinaryFuse8Filter.class, b),
            b -> Forms.wrap(BinaryFuse8Filter.class, b)),
        new Reader(
            "fuse16",
            Forms.toBytes(BinaryFuse16Filter.builder().keyScheme(KeyScheme.XXPH3).build(KEYS)),
            b -> Forms.read(BinaryFuse16Filter.class, b),
            b -> Forms.wrap(BinaryFuse16Filter.class, b)),
        new Reader(
            "cuckoo",
            Forms.toBytes(cuckoo),
            b -> Forms.read(CuckooFilter.class, b),
            b -> Forms.wrap(CuckooFilter.class, b)));
  }

  /** The offset the reader refuses at, or -1 when it accepts. */
  private static long outcome(Runnable read) {
    try {
      read.run();
      return -1;
    } catch (SieveFormatException e) {
      return e.offset();
    }
  }

  @Test
  void wrapAndCopyRefuseTheSameInputsAtTheSameOffsets() {
    SplittableRandom random = new SplittableRandom(11);
    for (Reader r : readers()) {
      byte[] form = r.form();
      for (int cut = 0; cut < Math.min(form.length, 64); cut++) {
        byte[] truncated = Arrays.copyOf(form, cut);
        assertEquals(
            outcome(() -> r.copy().apply(truncated)),
            outcome(() -> r.wrap().apply(ByteBuffer.wrap(truncated))),
            r.name() + " truncated to " + cut);
      }
      int refused = 0;
      for (int i = 0; i < 400; i++) {
        byte[] bad = form.clone();
        int at = i < 200 ? random.nextInt(Math.min(bad.length, 32)) : random.nextInt(bad.length);
        bad[at] ^= (byte) (1 << random.nextInt(8));
        long copied = outcome(() -> r.copy().apply(bad));
        long wrapped = outcome(() -> r.wrap().apply(ByteBuffer.wrap(bad)));
        assertEquals(copied, wrapped, r.name() + " with byte " + at + " flipped");
        if (copied >= 0) {
          refused++;
        }
      }
      assertTrue(refused > 0, r.name() + ": no header corruption was refused");
      // a plain heap buffer with a non-zero position reads like the array
      ByteBuffer heap = ByteBuffer.allocate(form.length + 5).position(5);
      heap.put(form).position(5);
      Filter wrapped = r.wrap().apply(heap);
      for (long k : KEYS) {
        assertTrue(wrapped.mayContain(k), r.name());
      }
    }
  }

  @Test
  void wrappedCuckooIsReadOnlyAndItsCopyIsMutable() {
    CuckooFilter built = CuckooFilter.createWithFingerprintBits(100, 12);
    for (long k = 0; k < 100; k++) {
      built.add(k);
    }
    CuckooFilter wrapped = Forms.wrap(CuckooFilter.class, ByteBuffer.wrap(Forms.toBytes(built)));
    assertTrue(wrapped.isWrapped());
    assertThrows(UnsupportedOperationException.class, () -> wrapped.add(1000L));
    assertThrows(UnsupportedOperationException.class, () -> wrapped.remove(5L));
    CuckooFilter copy = wrapped.copy();
    assertTrue(copy.remove(5L));
    copy.add(1000L);
    assertTrue(copy.mayContain(1000L));
    assertTrue(wrapped.mayContain(5L));
  }
}
