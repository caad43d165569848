package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import org.junit.jupiter.api.Test;

/**
 * {@link SieveFormat#FLAG_LONG_KEYS}: a container may record that its keys were added as longs,
 * beside the default key scheme only; the filter reads the same with or without it.
 */
class LongKeysFlagTest {
  static final long[] KEYS = {42, 7, -1, 1L << 40, Long.MAX_VALUE};

  private static byte[] write(Filter f, boolean longKeys) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SieveFormat.write(f, Channels.newChannel(out), longKeys);
    return out.toByteArray();
  }

  private static int flags(byte[] container) {
    return ByteBuffer.wrap(container).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
  }

  @Test
  void theFlagIsRecordedAndTheFilterReadsTheSame() throws IOException {
    Filter f = BlockedBloomFilter.builder().bitsPerKey(10).build(KEYS);
    byte[] plain = write(f, false);
    byte[] longs = write(f, true);
    assertEquals(0, flags(plain));
    assertEquals(SieveFormat.FLAG_LONG_KEYS, flags(longs));
    assertArrayEquals(SieveFormat.toBytes(f), plain, "without the flag: the bytes as before");
    for (byte[] container : new byte[][] {plain, longs}) {
      Filter read = SieveFormat.read(container);
      assertEquals(KeyScheme.XXPH3, read.keyScheme());
      for (long k : KEYS) {
        assertTrue(read.mayContain(k), Long.toString(k));
      }
      ContainerHeader h = SieveFormat.readHeader(ByteBuffer.wrap(container), container.length);
      assertEquals(flags(container), h.flags());
    }
    // the payload is the same; only the flags and the header checksum differ
    assertArrayEquals(
        java.util.Arrays.copyOfRange(plain, 64, plain.length),
        java.util.Arrays.copyOfRange(longs, 64, longs.length));
  }

  @Test
  void theFlagGoesWithTheXxph3SchemeOnly() {
    Filter mix =
        BlockedBloomFilter.builder()
            .expectedKeys(10)
            .fpRate(0.01)
            .keyScheme(KeyScheme.MIX64)
            .create();
    assertThrows(IllegalArgumentException.class, () -> write(mix, true));
    byte[] bytes = SieveFormat.toBytes(mix);
    byte[] both =
        TestFilters.fixChecksums(
            TestFilters.withInt(
                bytes, 12, SieveFormat.FLAG_LONG_KEYS | SieveFormat.FLAG_MIX64_LONG_KEYS));
    SieveFormatException e = assertThrows(SieveFormatException.class, () -> SieveFormat.read(both));
    assertEquals(12, e.offset());
    assertTrue(e.getMessage().contains("XXPH3 key scheme"), e.getMessage());
  }
}
