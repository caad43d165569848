package dev.sieve.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Properties of {@link Xxph3}: the hash depends only on the bytes in the range and the seed. */
class Xxph3PropertyTest {

  /**
   * Any sub-range of any array hashes like a copy of just those bytes, through the array and the
   * direct-buffer entry points alike (lengths reach past 1024 so the block scramble is covered).
   */
  @Property(tries = 400)
  void subRangeHashesLikeItsCopy(
      @ForAll @Size(max = 1300) byte[] data,
      @ForAll @IntRange(min = 0, max = 1300) int start,
      @ForAll @IntRange(min = 0, max = 1300) int length,
      @ForAll long seed) {
    int off = Math.min(start, data.length);
    int len = Math.min(length, data.length - off);
    long expected = Xxph3.hash64(Arrays.copyOfRange(data, off, off + len), 0, len, seed);
    assertEquals(expected, Xxph3.hash64(data, off, len, seed));
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length).order(ByteOrder.BIG_ENDIAN);
    direct.put(data).flip();
    assertEquals(expected, Xxph3.hash64(direct, off, len, seed));
  }

  /** The {@code long} entry point is the hash of the value's eight big-endian bytes. */
  @Property(tries = 2000)
  void bigEndianLongIsItsEightBytes(@ForAll long value, @ForAll long seed) {
    byte[] bytes = ByteBuffer.allocate(8).putLong(value).array();
    assertEquals(Xxph3.hash64(bytes, 0, 8, seed), Xxph3.hash64BigEndianLong(value, seed));
  }
}
