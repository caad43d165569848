package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import dev.sieve.SieveFormatException;
import dev.sieve.interop.GuavaBloomFilter.Strategy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link GuavaBloomFilter} against Guava 33.5.0: reads answer as Guava for 10^5 present and 10^5
 * absent keys, every one; writes are byte-identical to Guava's {@code writeTo} and read back by
 * Guava's {@code readFrom}; crafted headers give typed errors.
 */
class GuavaBloomInteropTest {

  static final int PROBES = 100_000;

  /** Guava's filter of a strategy: MITZ_32 through its form, as Guava's public API has no knob. */
  static <T> BloomFilter<T> guava(
      com.google.common.hash.Funnel<? super T> funnel, long n, double fpp, Strategy s)
      throws IOException {
    BloomFilter<T> f = BloomFilter.create(funnel, n, fpp);
    if (s == Strategy.MURMUR128_MITZ_64) {
      return f;
    }
    byte[] b = bytes(f);
    b[0] = 0;
    return BloomFilter.readFrom(new ByteArrayInputStream(b), funnel);
  }

  static byte[] bytes(BloomFilter<?> f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  @ParameterizedTest
  @CsvSource({
    "MURMUR128_MITZ_32, 1000, 0.01",
    "MURMUR128_MITZ_64, 1000, 0.01",
    "MURMUR128_MITZ_32, 30000, 0.03",
    "MURMUR128_MITZ_64, 30000, 0.001",
    "MURMUR128_MITZ_64, 100000, 0.2",
    "MURMUR128_MITZ_32, 100000, 0.05",
  })
  void byteKeysReadAndWriteAsGuava(Strategy s, int n, double fpp) throws IOException {
    SplittableRandom random = new SplittableRandom(n * 31L + s.ordinal());
    BloomFilter<byte[]> g = guava(Funnels.byteArrayFunnel(), n, fpp, s);
    GuavaBloomFilter mine = GuavaBloomFilter.create(n, fpp, s);
    byte[][] keys = new byte[n][];
    for (int i = 0; i < n; i++) {
      keys[i] = new byte[random.nextInt(0, 40)];
      random.nextBytes(keys[i]);
      g.put(keys[i]);
      mine.put(keys[i]);
    }
    byte[] guavaBytes = bytes(g);
    assertArrayEquals(guavaBytes, mine.toByteArray(), "the writer's bytes are Guava's");
    GuavaBloomFilter read = GuavaBloomFilter.readFrom(guavaBytes);
    assertEquals(s, read.strategy());
    BloomFilter<byte[]> back =
        BloomFilter.readFrom(
            new ByteArrayInputStream(mine.toByteArray()), Funnels.byteArrayFunnel());
    int positives = 0;
    for (int i = 0; i < PROBES; i++) {
      byte[] present = keys[i % n];
      assertTrue(read.mayContain(present));
      assertTrue(back.mightContain(present));
      byte[] absent = new byte[random.nextInt(8, 40)]; // not a short present key
      random.nextBytes(absent);
      boolean answer = read.mayContain(absent);
      assertEquals(g.mightContain(absent), answer, "absent key " + i);
      positives += answer ? 1 : 0;
    }
    assertTrue(positives < PROBES * Math.max(4 * fpp, 0.02), "rate " + positives);
    assertEquals(g.expectedFpp(), read.expectedFpRate(), 1e-12);
  }

  @ParameterizedTest
  @CsvSource({"MURMUR128_MITZ_32, 5000, 0.02", "MURMUR128_MITZ_64, 50000, 0.01"})
  void longStringAndIntFunnels(Strategy s, int n, double fpp) throws IOException {
    SplittableRandom random = new SplittableRandom(n);
    BloomFilter<Long> gl = guava(Funnels.longFunnel(), n, fpp, s);
    BloomFilter<CharSequence> gs = guava(Funnels.stringFunnel(StandardCharsets.UTF_8), n, fpp, s);
    BloomFilter<Integer> gi = guava(Funnels.integerFunnel(), n, fpp, s);
    BloomFilter<CharSequence> gu = guava(Funnels.unencodedCharsFunnel(), n, fpp, s);
    GuavaBloomFilter ml = GuavaBloomFilter.create(n, fpp, s);
    GuavaBloomFilter ms = GuavaBloomFilter.create(n, fpp, s);
    GuavaBloomFilter mu = GuavaBloomFilter.create(n, fpp, s);
    for (int i = 0; i < n; i++) {
      long k = random.nextLong();
      gl.put(k);
      ml.put(k);
      String text = "key-" + k + "-\u00e9\u4e2d";
      gs.put(text);
      ms.put(text);
      gu.put(text);
      mu.put(text.getBytes(StandardCharsets.UTF_16LE));
      gi.put((int) k);
    }
    assertArrayEquals(bytes(gl), ml.toByteArray());
    assertArrayEquals(bytes(gs), ms.toByteArray());
    assertArrayEquals(bytes(gu), mu.toByteArray());
    GuavaBloomFilter ri = GuavaBloomFilter.readFrom(bytes(gi));
    GuavaBloomFilter rl = GuavaBloomFilter.readFrom(bytes(gl));
    GuavaBloomFilter rs = GuavaBloomFilter.readFrom(bytes(gs));
    for (int i = 0; i < PROBES; i++) {
      long k = random.nextLong();
      assertEquals(gl.mightContain(k), rl.mayContain(k));
      assertEquals(gi.mightContain((int) k), ri.mayContainInt((int) k));
      String text = "q" + k;
      assertEquals(gs.mightContain(text), rs.mayContain(text));
    }
  }

  @Test
  void craftedHeadersAreTypedErrors() {
    // Guava's readFrom allocates 2^31 - 1 words for this 6-byte input (oss-fuzz 15484)
    byte[] hostile = ByteBuffer.allocate(6).put((byte) 1).put((byte) 5).putInt(0x7fffffff).array();
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> GuavaBloomFilter.readFrom(hostile));
    assertTrue(e.getMessage().contains("data length 2147483647"), e.getMessage());
    assertEquals(2, e.offset());
    for (int len = 0; len < 6; len++) {
      byte[] truncated = new byte[len];
      assertThrows(SieveFormatException.class, () -> GuavaBloomFilter.readFrom(truncated));
    }
    byte[] ok = GuavaBloomFilter.create(10, 0.1).toByteArray();
    assertEquals(GuavaBloomFilter.create(10, 0.1), GuavaBloomFilter.readFrom(ok));
    byte[] c = ok.clone();
    c[0] = 2;
    assertMessage(c, "strategy ordinal 2");
    c = ok.clone();
    c[0] = -1;
    assertMessage(c, "strategy ordinal -1");
    c = ok.clone();
    c[1] = 0;
    assertMessage(c, "number of hash functions 0");
    assertMessage(ByteBuffer.allocate(6).putShort((short) 1).putInt(0).array(), "data length 0");
    assertMessage(ByteBuffer.allocate(6).putShort((short) 1).putInt(-8).array(), "data length -8");
    assertMessage(java.util.Arrays.copyOf(ok, ok.length + 1), "the filter has");
    assertMessage(java.util.Arrays.copyOf(ok, ok.length - 1), "the filter has");
    assertThrows(IllegalArgumentException.class, () -> GuavaBloomFilter.create(10, 0.0));
    assertThrows(IllegalArgumentException.class, () -> GuavaBloomFilter.create(10, 1.0));
    assertThrows(IllegalArgumentException.class, () -> GuavaBloomFilter.create(-1, 0.5));
    assertThrows(IllegalArgumentException.class, () -> GuavaBloomFilter.create(1, 0.99)); // 0 bits
  }

  private static void assertMessage(byte[] bytes, String part) {
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> GuavaBloomFilter.readFrom(bytes));
    assertTrue(e.getMessage().contains(part), e.getMessage());
  }
}
